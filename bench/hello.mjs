// The baseline server: a bare Fastify hello-world, nothing else. HELLO_HEADERS (a JSON object)
// adds fixed response headers: the same headers the gateway sends, for a like-for-like baseline.
import Fastify from 'fastify';

const headers = JSON.parse(process.env.HELLO_HEADERS ?? '{}');
const app = Fastify();
app.get('/', async (_request, reply) => {
  reply.headers(headers);
  return { hello: 'world' };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

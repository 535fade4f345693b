// The baseline server: a bare Fastify hello-world, nothing else. HELLO_HEADERS (a JSON object)
// adds fixed response headers: the same headers the gateway sends, for a like-for-like baseline.
// HELLO_PLUGINS=1 adds what the gateway runs on every request from libraries (its request ids, a
// per-request logger at warn, @fastify/cookie, @fastify/cors): the gateway's floor with its
// features, so that what is left over it is the gateway's own code. HELLO_SERVER=node answers the
// same from node:http without Fastify: what writing those headers costs Node itself.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';

const headers = JSON.parse(process.env.HELLO_HEADERS ?? '{}');
const port = Number(process.env.PORT);
const stopOnSigterm = (close) => process.on('SIGTERM', () => close().then(() => process.exit(0)));

if (process.env.HELLO_SERVER === 'node') {
  const body = JSON.stringify({ hello: 'world' });
  const answer = {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  };
  const server = createServer((_request, response) => {
    response.writeHead(200, answer);
    response.end(body);
  });
  server.listen(port, '127.0.0.1');
  stopOnSigterm(() => new Promise((resolve) => server.close(resolve)));
} else {
  const plugins = process.env.HELLO_PLUGINS === '1';
  const app = Fastify(plugins ? { logger: { level: 'warn' }, genReqId: () => randomUUID() } : {});
  if (plugins) {
    await app.register(cookie);
    await app.register(cors, {
      origin: '*',
      exposedHeaders: headers['access-control-expose-headers'],
    });
  }
  app.get('/', async (_request, reply) => {
    reply.headers(headers);
    return { hello: 'world' };
  });
  await app.listen({ port, host: '127.0.0.1' });
  stopOnSigterm(() => app.close());
}

// A baseline: one more HTTP hop and nothing else. A bare Fastify forwarding every request to
// UPSTREAM with @fastify/http-proxy (what the gateway's proxy mode uses), for the floor of what a
// service in front of another costs on this machine.
import Fastify from 'fastify';
import httpProxy from '@fastify/http-proxy';

const app = Fastify();
await app.register(httpProxy, { upstream: process.env.UPSTREAM });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

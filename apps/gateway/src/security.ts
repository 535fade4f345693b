import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '@platform/core';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets with `options`, computed once: with static directives they depend on
 * nothing in the request. (Running helmet on every request, as @fastify/helmet does, parsed the
 * CSP directives anew each time: a tenth of a trivial request's CPU in the profile.)
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/** Sends helmet's headers on every answer (a route or an upstream may still set its own). */
export function securityHeaders(app: App, options: HelmetOptions) {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

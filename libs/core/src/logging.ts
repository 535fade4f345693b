import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a credential: a sign-in hand-off's token, an OAuth code or state. */
const SECRET_PARAMS = /([?&](?:token|code|state)=)[^&#]*/gi;

/** A URL as it may be logged: credential parameters' values replaced. */
export const loggableUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[Redacted]');

/** Log options shared by every process: credentials in headers and URLs never reach the log. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      'req.headers["x-api-key"]',
      'req.headers["x-platform-identity"]',
    ],
    serializers: {
      // Fastify's own fields, the URL without credentials.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

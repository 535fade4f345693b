import type { FastifyBaseLogger } from 'fastify';
import { Octokit } from '@octokit/rest';

/**
 * An Octokit for one request: the delegated token, the provider's base URL, a timeout per call.
 * @octokit/rest is ESM only: this CommonJS package loads it with require(esm) (Node 20.19+; Jest
 * transforms it, see transformIgnorePatterns).
 */
export function octokitFor(options: {
  token: string;
  baseUrl: string;
  timeoutMs: number;
  log: FastifyBaseLogger;
  requestId?: string;
}): Octokit {
  const { log } = options;
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: 'platform-git',
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => log.warn(message),
      error: (message: string) => log.error(message),
    },
  });
  octokit.hook.before('request', (request) => {
    request.request = { ...request.request, signal: AbortSignal.timeout(options.timeoutMs) };
    if (options.requestId) request.headers['x-request-id'] = options.requestId;
  });
  return octokit;
}
export type { Octokit };

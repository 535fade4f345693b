import { ApiError, badGateway, badRequest, serviceUnavailable } from './errors.js';

/** libs/client's PlatformError (its code, message and status), told apart by its shape. */
export type PlatformErrorLike = Error & { status: number; code: string };

export const isPlatformError = (error: unknown): error is PlatformErrorLike =>
  error instanceof Error &&
  error.name === 'PlatformError' &&
  typeof (error as { status?: unknown }).status === 'number';

export interface DelegatedTokenRequest {
  /** The identity service's provider (id or name) whose token is asked for. */
  provider: string;
  /** The email of the person whose token it is. */
  user: string;
  /** The identity service's getToken call, e.g. `platformFor(identity).passport.getToken(...)`. */
  getToken: () => Promise<{ accessToken: string }>;
  /** The 400 of a provider the identity service does not know (its message given). */
  unknownProvider: (message: string) => string;
  /** What the token is for, in messages: `token` (default), `Google token`. */
  what?: string;
  /** The code of the identity service's 401 (default UNAUTHORIZED). */
  unauthorized?: 'UNAUTHORIZED' | 'FORBIDDEN';
}

const connectPath = (provider: string) =>
  `/api/v1/passport/providers/${encodeURIComponent(provider)}/connect`;

/**
 * A person's delegated token from the identity service, its failures as platform errors: not
 * connected or not refreshable 403 (naming where to connect), unknown provider 400, a provider
 * secret that is not set 409 NOT_CONFIGURED, refused 401/403, unreachable 503, failing 502.
 */
export async function delegatedToken(request: DelegatedTokenRequest): Promise<string> {
  const { provider, user } = request;
  try {
    return (await request.getToken()).accessToken;
  } catch (error) {
    if (!isPlatformError(error))
      throw serviceUnavailable(
        `The identity service cannot be reached for ${user}'s ${request.what ?? 'token'}: ${(error as Error).message}`,
        error,
      );
    if (error.status === 404 && /has not connected/.test(error.message))
      throw new ApiError(
        'FORBIDDEN',
        `${user} has not connected ${provider}: sign in as ${user} and open ${connectPath(provider)} to connect it`,
      );
    if (error.status === 404) throw badRequest(request.unknownProvider(error.message));
    // The provider's secret is a variable that is not set: reconnecting would not help.
    if (error.code === 'NOT_CONFIGURED')
      throw new ApiError('NOT_CONFIGURED', `The identity service: ${error.message}`);
    if (error.status === 409)
      throw new ApiError(
        'FORBIDDEN',
        `${user}'s token for ${provider} cannot be refreshed: connect again at ${connectPath(provider)}`,
      );
    if (error.status === 403 || (error.status === 401 && request.unauthorized === 'FORBIDDEN'))
      throw new ApiError(
        'FORBIDDEN',
        `The identity service refused ${user}'s token: ${error.message}`,
      );
    if (error.status === 401) throw new ApiError('UNAUTHORIZED', error.message);
    throw badGateway(`The identity service failed (${error.status}): ${error.message}`, error);
  }
}

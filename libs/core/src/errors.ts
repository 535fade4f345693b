/** Error codes of the platform and the HTTP status each one answers with. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** What the request needs is a setting that is off (the message names the variable). */
  NOT_CONFIGURED: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error meant for the client: its code and message go into the envelope unchanged. */
export class ApiError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.statusCode = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new ApiError('BAD_REQUEST', message);

/** `<Resource> not found: <idOrName>` (spec 7). */
export const notFound = (resource: string, idOrName?: string) =>
  new ApiError(
    'NOT_FOUND',
    idOrName === undefined ? `${resource} not found` : `${resource} not found: ${idOrName}`,
  );

export const conflict = (message: string) => new ApiError('CONFLICT', message);

export const serviceUnavailable = (message: string, cause?: unknown) =>
  new ApiError('SERVICE_UNAVAILABLE', message, { cause });

/** 409 NOT_CONFIGURED: the request needs a setting that is off; `message` names the variable. */
export const notConfigured = (message: string) => new ApiError('NOT_CONFIGURED', message);

export const badGateway = (message: string, cause?: unknown) =>
  new ApiError('BAD_GATEWAY', message, { cause });

/** The code for an HTTP status that carries no code of its own. */
export function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).find(
    ([, s]) => s === status,
  );
  if (match) return match[0];
  if (status === 504) return 'BAD_GATEWAY';
  return status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
}

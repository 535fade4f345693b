/** The SQLSTATE of a Postgres error (pg and PGlite both set `code`), or undefined. */
export const sqlState = (error: unknown): string | undefined =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;

/** unique_violation: a value another row has already. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** foreign_key_violation: a reference to a row that is gone, or a row still referred to. */
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === '23503';

/**
 * Errors that say the database could not be reached or dropped the connection, rather than that
 * the statement was wrong: socket errors, SQLSTATE class 08 (connection exception), 57P01-57P03
 * (the server shutting down, crashed or starting up), 53300 (too many connections), and the
 * messages `pg` gives without a code when a connection ends under it or the pool cannot connect.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = sqlState(error);
  if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  const { message, errors } = error as { message?: unknown; errors?: unknown };
  // A connect to several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError.
  if (Array.isArray(errors) && errors.length > 0) return errors.every(isDatabaseUnavailable);
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
}

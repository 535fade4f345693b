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

/**
 * A value for a jsonb column. Parameters go in as JSON text, which both pg and PGlite cast to
 * jsonb; the type stays the column's so that Kysely checks the value's shape.
 */
export const jsonb = <T>(value: T) => JSON.stringify(value) as unknown as T;

// The malformed and nearly right inputs the sweep sends (sweep.test.ts).

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema?: { type?: string };
}
export interface Operation {
  operationId: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
}
export type Document = { paths: Record<string, Record<string, Operation>> };

export const HUGE = 'x'.repeat(100_000);
/** Values no field expects: wrong types, huge and odd strings, SQL and template metacharacters. */
export const BAD_TEXT = [
  '',
  ' ',
  'a'.repeat(10_000),
  "' or 1=1; drop table x; --",
  '{{ config.secret }}',
  '${process.env}',
  '../../etc/passwd',
  '\u0000',
  '💥\u202e',
  '-1',
  '99999999999999999999',
  '1e400',
  'NaN',
  'true',
  '[]',
  '%',
];
export const BAD_VALUES: unknown[] = [
  null,
  -1,
  1.5,
  99999999999999999999,
  true,
  [],
  [null],
  {},
  { $ne: 1 },
  HUGE,
  '\u0000',
  "'; --",
  '{{ auth.email }}',
  '💥 Zürich \u202e مرحبا \ud83d',
  '\uFEFF\u200B',
];

/** A plausible value of a schema: its first enum value, a date, an email, the minimum, ... */
export function sample(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time'
        ? new Date().toISOString()
        : schema.format === 'email'
          ? 'sweep@example.com'
          : 'sweep';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'sweep';
  }
}

/**
 * Bodies that are right but for one thing, so that a bad value reaches as far as it can: each
 * field in turn given each bad value, each required field left out, one field too many.
 */
export function nearlyRightBodies(schema: Schema | undefined): string[] {
  const fields = Object.entries(schema?.properties ?? {});
  if (fields.length === 0) return [];
  const base = Object.fromEntries(fields.map(([name, field]) => [name, sample(field)]));
  const bodies: object[] = [{ ...base, unexpected: 'field' }];
  for (const name of schema?.required ?? []) {
    const { [name]: _left, ...rest } = base;
    bodies.push(rest);
  }
  for (const [name] of fields)
    for (const value of [...BAD_VALUES, ...BAD_TEXT]) bodies.push({ ...base, [name]: value });
  return bodies.map((body) => JSON.stringify(body));
}

/** Bodies that are wrong as a whole or in one field at a time. */
export function badBodies(schema: Schema | undefined): Array<[string, string?]> {
  const bodies: Array<[string, string?]> = [
    ['{'],
    ['{"a":'],
    ['null'],
    ['[]'],
    ['"text"'],
    ['42'],
    ['{}'],
    [JSON.stringify({ unexpected: 'field', __proto__: { polluted: true } })],
    ['name=x', 'application/x-www-form-urlencoded'],
    ['plain text', 'text/plain'],
    ['<a/>', 'application/xml'],
  ];
  for (const field of Object.keys(schema?.properties ?? {}))
    for (const value of BAD_VALUES) bodies.push([JSON.stringify({ [field]: value })]);
  return bodies;
}

/**
 * The operations tagged `<client>-compatible` answer errors in their clients' shape, the one
 * documented exception to the envelope: `{error: {type, message}}` (OpenAI), with `type: 'error'`
 * around it (Anthropic); `{type, code, detail}` (PostHog's capture); `{success: false, message}`
 * (Segment's tracking API).
 */
export const speaksClientShape = (op: Pick<Operation, 'tags'>) =>
  (op.tags ?? []).some((tag) => tag.endsWith('-compatible'));

/** What an error of such an operation looks like, by the client its tag names. */
export function clientError(op: Pick<Operation, 'tags'>) {
  const tags = op.tags ?? [];
  if (tags.includes('PostHog-compatible'))
    return expect.objectContaining({ type: expect.any(String), detail: expect.any(String) });
  if (tags.includes('Segment-compatible'))
    return expect.objectContaining({ success: false, message: expect.any(String) });
  return expect.objectContaining({
    error: expect.objectContaining({ type: expect.any(String), message: expect.any(String) }),
  });
}

import { Type, type TObject, type TSchemaOptions, type TSchema } from 'typebox';
import { onceFor } from './memo.js';

export const ErrorBodySchema = Type.Object({
  code: Type.String({ description: 'Machine-readable error code, e.g. BAD_REQUEST' }),
  message: Type.String({ description: 'What was wrong, naming the field where there is one' }),
});

export const ErrorEnvelopeSchema = Type.Object({
  success: Type.Literal(false),
  error: ErrorBodySchema,
});

const envelopes = new WeakMap<TSchema, TSchema>();

/**
 * The success envelope around a response's data: one object per data schema, so that its
 * serializer is compiled once (see serializerCompiler).
 */
export const Envelope = <T extends TSchema>(data: T) => {
  const make = () => Type.Object({ success: Type.Literal(true), data });
  return onceFor(envelopes, data, make) as ReturnType<typeof make>;
};

type EnvelopeOf<T extends TSchema> = ReturnType<typeof Envelope<T>>;

/**
 * Response schemas of a route: each success status with its data in the envelope, plus the error
 * envelope for 4xx and 5xx. They serialize the reply (fields not in the schema are never sent)
 * and document it in OpenAPI.
 */
export function responses<R extends Record<number, TSchema>>(byStatus: R) {
  const out: Record<string, TSchema> = { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema };
  for (const [status, data] of Object.entries(byStatus)) out[status] = Envelope(data);
  return out as { [K in keyof R]: R[K] extends TSchema ? EnvelopeOf<R[K]> : never } & {
    '4xx': typeof ErrorEnvelopeSchema;
    '5xx': typeof ErrorEnvelopeSchema;
  };
}

export const ok = <T>(data: T) => ({ success: true as const, data });

/** The largest `offset` of a list: beyond it a 400 rather than a number the database cannot hold. */
export const MAX_OFFSET = 2_147_483_647;

/** `limit` and `offset` of every list (ARCHITECTURE: limit 100 by default, 1000 at most). */
export const PageQuery = {
  limit: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 100,
    description: 'Page size (1-1000)',
  }),
  offset: Type.Integer({
    minimum: 0,
    maximum: MAX_OFFSET,
    default: 0,
    description: `Rows to skip (0-${MAX_OFFSET})`,
  }),
};

/** A query of `limit`, `offset` and the filters given. */
export const PagedQuery = <T extends Record<string, TSchema>>(filters: T) =>
  Type.Object({ ...filters, ...PageQuery });

/** `:idOrName` of a record: an exact id first, else a name in any case (spec 2.1). */
export const IdOrNameParams = Type.Object({
  idOrName: Type.String({ minLength: 1, description: 'The id (exact) or the name (any case)' }),
});

/** A name: 1-100 characters without a space at either end; unique case-insensitively. */
export const Name = (title: string, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^\\S(.*\\S)?$',
    title,
    description: description ?? 'Unique, case-insensitively; no space at either end',
  });

/** Tags of a record: up to 50, each 1-50 characters. */
export const TagsSchema = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 50,
  description: 'Up to 50 tags of 1-50 characters; repeats are dropped',
});

/** `{ id, name }` of a linked record. */
export const RefSchema = Type.Object({ id: Type.String(), name: Type.String() });

/** A date (YYYY-MM-DD) or an ISO 8601 timestamp, for `from` and `to` filters. */
export const Instant = (description: string) =>
  Type.String({
    pattern:
      '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
    description: `${description}: a date (YYYY-MM-DD) or an ISO 8601 timestamp`,
    examples: ['2026-01-31', '2026-01-31T12:00:00.000Z'],
  });

export const IsoTimestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC timestamp with milliseconds',
});

/** A value or null: what an optional field reads as, and how a PUT clears it. */
export const Nullable = <T extends TSchema>(schema: T, options: TSchemaOptions = {}) =>
  Type.Union([schema, Type.Null()], options);

/**
 * Spec 2.1.4 spells the record timestamps two ways, per service: `createdAt`/`updatedAt` (audit,
 * catalog, billing, communication) and `created`/`updated` (design system, git, inference).
 */
export const StampsAt = { createdAt: IsoTimestamp, updatedAt: IsoTimestamp };
export const stampsAt = (created: Date, updated: Date) => ({
  createdAt: created.toISOString(),
  updatedAt: updated.toISOString(),
});
export const Stamps = { created: IsoTimestamp, updated: IsoTimestamp };
export const stamps = (created: Date, updated: Date) => ({
  created: created.toISOString(),
  updated: updated.toISOString(),
});

/**
 * The body of a partial update (PUT): every field of `schema` optional, and none filled in by its
 * default, so that a field left out keeps its value instead of being reset.
 */
export function UpdateOf<T extends TObject>(schema: T) {
  const partial = Type.Partial(schema);
  for (const property of Object.values((partial as TObject).properties))
    delete (property as { default?: unknown }).default;
  return partial;
}

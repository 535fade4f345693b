import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type {
  FastifySchema,
  FastifySchemaValidationError,
  SchemaErrorDataVar,
} from 'fastify/types/schema';
import { Type } from 'typebox';
import { ApiError } from './errors.js';
import { onceFor } from './memo.js';

interface AjvError extends FastifySchemaValidationError {
  parentSchema?: { properties?: Record<string, { title?: string }> };
}

/** `/events/3/name` -> `events[3].name` */
function toPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
      '',
    );
}

const join = (path: string, field: string) => (path ? `${path}.${field}` : field);

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  null: 'null',
};

function describe(error: AjvError, where: SchemaErrorDataVar): string {
  const params = error.params as Record<string, unknown>;
  const path = toPath(error.instancePath);
  const field = path || (where === 'body' ? 'body' : where);
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const title = error.parentSchema?.properties?.[missing]?.title;
      const fieldPath = join(path, missing);
      return title
        ? `${title[0].toUpperCase()}${title.slice(1)} is required (${fieldPath})`
        : `${fieldPath} is required`;
    }
    case 'type': {
      const types = String(params.type).split(',');
      return `${field} must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'minLength':
      return params.limit === 1
        ? `${field} must not be empty`
        : `${field} must be at least ${params.limit} characters long`;
    case 'maxLength':
      return `${field} must be at most ${params.limit} characters long`;
    case 'minimum':
      return `${field} must be at least ${params.limit}`;
    case 'maximum':
      return `${field} must be at most ${params.limit}`;
    case 'minItems':
      return `${field} must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${field} must have at most ${params.limit} items`;
    case 'enum':
      return `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${field} must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
    case 'format':
      return `${field} has an invalid format${params.format ? ` (expected ${params.format})` : ''}`;
    case 'additionalProperties':
      return `${field} has an unknown field: ${String(params.additionalProperty)}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/** Turns Ajv's first error into one sentence that names the field, e.g. `events[3].name is required`. */
export function schemaErrorFormatter(
  errors: FastifySchemaValidationError[],
  where: SchemaErrorDataVar,
) {
  const error = new ApiError('BAD_REQUEST', describe(errors[0] as AjvError, where));
  return Object.assign(error, { validation: errors, validationContext: where });
}

// Query strings, params and headers arrive as text, so their numbers and booleans are coerced;
// a JSON body is taken as sent: `"name": 5` is an error, not the string "5".
const ajvOptions = {
  verbose: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
} as const;
const textAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: 'array' }));
const bodyAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));

type JsonSchema = { [key: string]: unknown };
/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['default', 'examples', 'enum', 'const']);

/**
 * The platform's rule for what a request does not declare: a body field or query parameter the
 * route's schema does not name is refused (400 `body has an unknown field: x`), never dropped
 * without a word. Every object schema with `properties` and no rule of its own is closed;
 * free-form maps say so (`Type.Record`, or `additionalProperties: true`). The route's schema is
 * copied, not changed, so the OpenAPI document shows it as written.
 */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema))
    copy[key] = DATA_KEYWORDS.has(key)
      ? value
      : key === 'properties' || key === 'patternProperties' || key === '$defs'
        ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  if (
    copy.properties !== undefined &&
    copy.additionalProperties === undefined &&
    copy.patternProperties === undefined
  )
    copy.additionalProperties = false;
  return copy;
}

/** The query of an operation that declares none: closed (see `closed`), so any is refused. */
const NO_QUERY = Type.Object({});

/**
 * A documented operation that declares no query parameter has none: any is refused (400), as
 * undeclared ones are where some are declared. Hidden routes (what the sandbox serves for its
 * apps, the API's fallbacks) and routes without a schema (the proxy, static files) pass theirs on.
 */
export function declareNoQuery(schema: { hide?: boolean; querystring?: unknown }) {
  if (!schema.hide && schema.querystring === undefined) schema.querystring = NO_QUERY;
}

/**
 * Validators compiled once per schema object and part, whichever app and route use it, and only
 * when a request first needs one: compiling every route's schemas was most of the time an app with
 * every service took to get ready (a whole gateway: 1.5 s of its 3.4 s), and every fallback and
 * test app compiled the same schemas again (`closed` copies them, so Ajv's own cache never hit).
 * A schema Ajv cannot compile now fails its route's requests (a 500) instead of the start: the
 * sweep (every documented operation, on both engines in CI) compiles the parameters', queries' and
 * bodies' validators of every route.
 */
const validators = {
  body: new WeakMap<object, ValidateFunction>(),
  querystring: new WeakMap<object, ValidateFunction>(),
  other: new WeakMap<object, ValidateFunction>(),
};

export function validatorCompiler({
  schema,
  httpPart,
}: {
  schema: FastifySchema;
  httpPart?: string;
}): ValidateFunction {
  const part = httpPart === 'body' || httpPart === 'querystring' ? httpPart : 'other';
  return onceFor(validators[part], schema, () =>
    onFirstCall(() =>
      part === 'body'
        ? bodyAjv.compile(closed(schema) as object)
        : part === 'querystring'
          ? textAjv.compile(closed(schema) as object)
          : textAjv.compile(schema as object),
    ),
  );
}

/**
 * A validator that compiles on its first call. Fastify reads its `errors`, and hands it the
 * request as the root's parent (so that Ajv may replace a root value) only when it has a
 * `schemaEnv`, as Ajv's own have: both are the compiled one's.
 */
function onFirstCall(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const compiledOnce = () => (compiled ??= compile());
  const validate = ((data: unknown, cxt?: Parameters<ValidateFunction>[1]) => {
    const valid = compiledOnce()(data, cxt);
    validate.errors = compiledOnce().errors;
    return valid;
  }) as ValidateFunction;
  Object.defineProperty(validate, 'schemaEnv', { get: () => compiledOnce().schemaEnv });
  return validate;
}

/**
 * A validator of data against a JSON Schema that a user declared (a template's variables): the
 * first error in one sentence naming the field (`name is required`), or undefined when it fits.
 * Throws when the schema itself is not valid, or uses what a user may not: regular expressions
 * (`pattern`, `patternProperties`, `format: "regex"`: one crafted pattern can take exponential
 * time) or a `$ref` to another document (only `#/...`). Each schema is compiled in an Ajv of its
 * own, dropped with the validator: `$id`s never meet, and nothing is cached here (callers bound
 * their own cache). Strict types, no defaults filled in, no coercion.
 */
export function dataValidator(schema: object): (data: unknown) => string | undefined {
  refuseUnsafe(schema, 'schema');
  const validate = addFormats(
    new Ajv({ verbose: true, strict: false, coerceTypes: false }),
  ).compile(schema);
  return (data) =>
    validate(data)
      ? undefined
      : describe((validate.errors ?? [])[0] as unknown as AjvError, 'body');
}

/** Keywords whose value maps names (not keywords) to schemas or lists. */
const NAME_MAPS = new Set([
  'properties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/** Throws naming the path of the first regular expression or outside `$ref` in a schema. */
function refuseUnsafe(value: unknown, path: string, names = false): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => refuseUnsafe(item, `${path}[${i}]`));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (!names) {
      if (key === 'pattern' || key === 'patternProperties')
        throw new Error(
          `${at}: ${key} is not allowed (a regular expression can take exponential time); check the value in the template instead`,
        );
      if (key === 'format' && inner === 'regex')
        throw new Error(`${at}: format "regex" is not allowed (regular expressions)`);
      if (key === '$ref' && (typeof inner !== 'string' || !inner.startsWith('#')))
        throw new Error(`${at}: only a $ref inside the schema (#/...) is allowed`);
    }
    refuseUnsafe(inner, at, !names && NAME_MAPS.has(key));
  }
}

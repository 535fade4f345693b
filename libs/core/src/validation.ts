import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type {
  FastifySchema,
  FastifySchemaValidationError,
  SchemaErrorDataVar,
} from 'fastify/types/schema';
import { ApiError } from './errors.js';

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

export function validatorCompiler({
  schema,
  httpPart,
}: {
  schema: FastifySchema;
  httpPart?: string;
}): ValidateFunction {
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
}

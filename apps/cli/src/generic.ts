import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { invoke, operation, type Param, type Schema } from './api.js';
import { usageError } from './errors.js';
import { Output } from './output.js';

/** One command made from one operation of the API. */
export interface OpSpec {
  /** The operation's name in its service (`listServices`). */
  op: string;
  /** Positional arguments, path parameters first (default: the path parameters in order). */
  args?: string[];
  /** Table columns of a list. */
  columns?: string[];
  describe?: string;
  /** What people see instead of the data (a create's confirmation, a report's table). */
  human?: (data: unknown, out: Output) => string;
}
export type VerbSpec = string | OpSpec;

/** A service's commands: `platform <service> <resource> <verb>`, and verbs of its own. */
export interface ServiceSpec {
  service: string;
  describe: string;
  resources?: Record<
    string,
    { describe?: string; singular?: string; verbs: Record<string, VerbSpec> }
  >;
  verbs?: Record<string, VerbSpec>;
}

/**
 * The usual verbs of a named resource: `list` (with its table columns), `get`, `create <name>`,
 * `update`, `delete`, the operations named `<verb><Noun>` (`listServices`, `getService` ...);
 * `omit` leaves some out (a resource without update).
 */
export function crudVerbs(
  noun: string,
  plural: string,
  columns: string[],
  omit: string[] = [],
): Record<string, VerbSpec> {
  const verbs: Record<string, VerbSpec> = {
    list: { op: `list${plural}`, columns },
    get: `get${noun}`,
    create: { op: `create${noun}`, args: ['name'] },
    update: `update${noun}`,
    delete: `delete${noun}`,
  };
  for (const verb of omit) delete verbs[verb];
  return verbs;
}

/** Options every command has; an API field of the same name goes through --data. */
const RESERVED = new Set(['json', 'quiet', 'data', 'help']);

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The global --json/--quiet of a command's program. */
export const outputOf = (cmd: Command) => new Output(cmd.optsWithGlobals());

function typesOf(schema: Schema): string[] {
  const list = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [
    ...new Set(list.flatMap((s) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []))),
  ];
}

/** JSON text, `@file` (JSON read from it) or `-` (stdin). */
export function readJson(value: string, what: string): unknown {
  let text = value;
  try {
    if (value === '-') text = readFileSync(0, 'utf8');
    else if (value.startsWith('@')) text = readFileSync(value.slice(1), 'utf8');
  } catch (error) {
    throw usageError(`${what}: cannot read ${value.slice(1)}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw usageError(`${what} is not valid JSON: ${text.slice(0, 60)}`);
  }
}

/** A flag's text as the schema wants it: numbers, booleans, lists, JSON objects. */
export function coerce(param: Param, raw: string | string[] | boolean): unknown {
  const flag = `--${kebab(param.name)}`;
  const types = typesOf(param.schema);
  const one = (value: string, schemaTypes: string[]): unknown => {
    if (schemaTypes.includes('integer') || schemaTypes.includes('number')) {
      if (!schemaTypes.includes('string') || /^-?\d+(\.\d+)?$/.test(value)) {
        const number = Number(value);
        if (value.trim() === '' || Number.isNaN(number))
          throw usageError(`${flag} must be a number: ${value}`);
        return number;
      }
    }
    if (schemaTypes.includes('boolean') && !schemaTypes.includes('string')) {
      if (/^(true|yes|1)$/i.test(value)) return true;
      if (/^(false|no|0)$/i.test(value)) return false;
      throw usageError(`${flag} must be true or false: ${value}`);
    }
    if (
      (schemaTypes.includes('object') || schemaTypes.includes('array')) &&
      /^\s*[[{@]/.test(value)
    ) {
      // Text that may also be JSON (a token value `{brand.blue}` is an alias): JSON when it parses.
      if (!schemaTypes.includes('string')) return readJson(value, flag);
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    }
    if (schemaTypes.includes('object') && !schemaTypes.includes('string'))
      return readJson(value, flag);
    return value;
  };
  if (raw === true) return true;
  if (types.includes('array') && !types.includes('object')) {
    const items = Array.isArray(raw) ? raw : [raw as string];
    if (items.length === 1 && /^\s*\[/.test(items[0])) return readJson(items[0], flag);
    const itemTypes = typesOf(
      param.schema.items ?? param.schema.anyOf?.find((s) => s.items)?.items ?? {},
    );
    return items
      .flatMap((item) => item.split(','))
      .filter((item) => item !== '')
      .map((item) => one(item, itemTypes));
  }
  return one(Array.isArray(raw) ? raw[raw.length - 1] : (raw as string), types);
}

function optionFor(param: Param): Option {
  const types = typesOf(param.schema);
  const flag = `--${kebab(param.name)}`;
  const bool = types.length === 1 && types[0] === 'boolean';
  const list = types.includes('array') && !types.includes('object');
  const text = [
    param.description ?? param.schema.description ?? param.schema.title ?? '',
    list ? '(comma-separated or repeated)' : '',
    param.schema.enum ? `(${param.schema.enum.join(', ')})` : '',
    param.required ? '(required)' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const option = new Option(bool ? `${flag} [bool]` : `${flag} <value>`, text);
  if (list)
    option.argParser((value: string, previous: string[] | undefined) => [
      ...(previous ?? []),
      value,
    ]);
  return option;
}

/** Adds the command of one operation to `parent`. */
export function operationCommand(
  parent: Command,
  name: string,
  service: string,
  verb: VerbSpec,
  singular: string,
): Command {
  const spec: OpSpec = typeof verb === 'string' ? { op: verb } : verb;
  const op = operation(`${service}.${spec.op}`);
  const positionals = spec.args ?? op.pathParams;
  const cmd = parent.command(name).description(spec.describe ?? op.summary ?? spec.op);
  for (const arg of positionals) cmd.argument(`<${arg}>`);
  const flags = new Map<string, Param[]>();
  for (const param of op.params) {
    if (positionals.includes(param.name) || param.in === 'path' || RESERVED.has(param.name))
      continue;
    const option = optionFor(param);
    if (!flags.has(option.attributeName())) cmd.addOption(option);
    flags.set(option.attributeName(), [...(flags.get(option.attributeName()) ?? []), param]);
  }
  if (op.hasBody)
    cmd.option(
      '--data <json>',
      'The request body as JSON, @file or - (stdin); flags override its fields',
    );
  cmd.action(async (...received: unknown[]) => {
    const command = received[received.length - 1] as Command;
    const values = received.slice(0, positionals.length) as string[];
    const opts = command.opts<Record<string, string | string[] | boolean>>();
    const path: Record<string, string> = {};
    const query: Record<string, unknown> = {};
    const headers: Record<string, string> = {};
    let body: Record<string, unknown> | undefined;
    if (opts.data !== undefined) {
      const data = readJson(opts.data as string, '--data');
      if (!data || typeof data !== 'object' || Array.isArray(data))
        throw usageError('--data must be a JSON object');
      body = data as Record<string, unknown>;
    }
    positionals.forEach((arg, i) => {
      const param = op.params.find((p) => p.name === arg);
      if (op.pathParams.includes(arg)) path[arg] = values[i];
      else if (param?.in === 'query') query[arg] = values[i];
      else (body ??= {})[arg] = param ? coerce(param, values[i]) : values[i];
    });
    for (const [attribute, params] of flags) {
      if (opts[attribute] === undefined) continue;
      for (const param of params) {
        const value = coerce(param, opts[attribute]);
        if (param.in === 'header') headers[param.name] = String(value);
        else if (param.in === 'query') query[param.name] = value;
        else (body ??= {})[param.name] = value;
      }
    }
    if (op.hasBody && body === undefined && op.method !== 'DELETE') body = {};
    const data = await invoke(op.id, { path, query: query as never, body, headers });
    const out = outputOf(command);
    out.data(data, spec.columns, () =>
      spec.human
        ? spec.human(data, out)
        : (confirm(name, singular, data) ?? out.render(data, spec.columns)),
    );
  });
  return cmd;
}

/** `Created service cart (id Ab12Cd34)` after a create, update or delete. */
function confirm(verb: string, singular: string, data: unknown): string | undefined {
  const done = { create: 'Created', update: 'Updated', delete: 'Deleted' }[verb];
  if (!done || !data || typeof data !== 'object') return undefined;
  const row = data as Record<string, unknown>;
  const id = row.id ?? row.sid;
  const label =
    row.name && row.name !== id ? `${String(row.name)} (${String(id)})` : String(id ?? '');
  return `${done} ${singular} ${label}`.trim();
}

/** The command tree of one service from its declarative spec. */
export function serviceCommand(program: Command, spec: ServiceSpec): Command {
  const root = program.command(spec.service).description(spec.describe);
  for (const [noun, resource] of Object.entries(spec.resources ?? {})) {
    const cmd = root.command(noun).description(resource.describe ?? `${noun} of ${spec.service}`);
    const singular = resource.singular ?? noun.replace(/s$/, '');
    for (const [verb, op] of Object.entries(resource.verbs))
      operationCommand(cmd, verb, spec.service, op, singular);
  }
  for (const [verb, op] of Object.entries(spec.verbs ?? {}))
    operationCommand(root, verb, spec.service, op, spec.service);
  return root;
}

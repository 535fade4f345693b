/**
 * Environment variables declared once each: name, type, default, bounds and description. A group
 * of declarations (`declareVariables`) gives the typed reader a config function maps from, the
 * start-up check (a bad value throws a ConfigError naming the variable), and the README's rows
 * (`ServiceManifest.variables`, the root README's table: `scripts/readme-config.mjs`).
 */
import {
  ConfigError,
  envBaseUrls,
  envBool,
  envEnum,
  envInt,
  envString,
  envUrl,
  type Env,
} from './config.js';
import { normaliseBaseUrl } from './destination.js';
import type { Variable } from './service.js';
import {
  code,
  defaultText,
  intDefault,
  intRange,
  type Bound,
  type Unit,
} from './variables-docs.js';

/** One declared variable: how to read it, and how the README shows it. */
export interface Declared<T> {
  /** README: the default (Markdown), or `unset`. */
  readonly default: string;
  /** README: the values taken (Markdown). */
  readonly accepts: string;
  /** README: what it does (Markdown). */
  readonly description: string;
  /**
   * Reads `name` (this variable, or one of a family's) from `env`; a bad value throws a
   * ConfigError naming it. `resolve` gives the value of another variable of the group (a bound).
   */
  read(env: Env, name: string, resolve?: (name: string) => unknown): T;
}

interface Spec {
  description: string;
  /** The README's text of the default, when it is not a literal value (Markdown). */
  documentedDefault?: string;
}

/** Stops start-up when a check found a problem with the value of `name`. */
function refuse(name: string, problem: string | undefined) {
  if (problem) throw new ConfigError(name, problem);
}

interface IntSpec extends Spec {
  /** Left out when the config function decides (then `documentedDefault` says how). */
  default?: number;
  min?: Bound;
  max?: Bound;
  /** What the number counts, for the README (`33554432` (32 MiB), 100 ms to 1 h). */
  unit?: Unit;
}

function int(spec: IntSpec & { default: number }): Declared<number>;
function int(spec: IntSpec & { documentedDefault: string }): Declared<number | undefined>;
function int(spec: IntSpec): Declared<number | undefined> {
  const { min, max, unit } = spec;
  const fallback = spec.default;
  return {
    default: intDefault(spec.documentedDefault, fallback, unit),
    accepts: intRange(min, max, unit),
    description: spec.description,
    read: (env, name, resolve) => {
      const value = (b: Bound | undefined) => {
        if (typeof b !== 'string') return b;
        if (!resolve) throw new Error(`${name}: its bound ${b} is read with its group`);
        return resolve(b) as number;
      };
      const range = { min: value(min), max: value(max) };
      return envString(env, name) === undefined ? fallback : envInt(env, name, 0, range);
    },
  };
}

interface StringSpec extends Spec {
  /** What the README says it takes (default: text). */
  accepts?: string;
  /** The problem with a value (`must be ...`), or undefined when it is fine. */
  check?: (value: string) => string | undefined;
}

function string(
  spec:
    | (StringSpec & { default: string })
    | (StringSpec & { default: (env: Env) => string; documentedDefault: string }),
): Declared<string>;
function string(spec: StringSpec): Declared<string | undefined>;
function string(
  spec: StringSpec & { default?: string | ((env: Env) => string) },
): Declared<string | undefined> {
  const fallback = spec.default;
  return {
    default: defaultText(
      spec.documentedDefault,
      typeof fallback === 'string' ? fallback : undefined,
    ),
    accepts: spec.accepts ?? 'text',
    description: spec.description,
    read: (env: Env, name: string) => {
      const value = envString(env, name);
      if (value !== undefined) refuse(name, spec.check?.(value));
      return value ?? (typeof fallback === 'function' ? fallback(env) : fallback);
    },
  };
}

const BOOLEANS = '`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)';

function bool(spec: Spec & { default: boolean }): Declared<boolean>;
function bool(spec: Spec): Declared<boolean | undefined>;
function bool(spec: Spec & { default?: boolean }): Declared<boolean | undefined> {
  return {
    default: defaultText(
      spec.documentedDefault,
      spec.default === undefined ? undefined : String(spec.default),
    ),
    accepts: BOOLEANS,
    description: spec.description,
    read: (env: Env, name: string) => envBool(env, name) ?? spec.default,
  };
}

function oneOf<T extends string>(values: readonly T[], spec: Spec & { default: T }): Declared<T> {
  const quoted = values.map(code);
  return {
    default: defaultText(spec.documentedDefault, spec.default),
    accepts: `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`,
    description: spec.description,
    read: (env, name) => envEnum(env, name, values, spec.default),
  };
}

interface UrlSpec extends Spec {
  accepts?: string;
  /** The problem with a value (`must be ...`), or undefined when it is fine. */
  check?: (value: string) => string | undefined;
  /** Kept as written, trailing `/` included (else without it). */
  verbatim?: boolean;
}

function url(spec: UrlSpec & { default: string }): Declared<string>;
function url(spec: UrlSpec): Declared<string | undefined>;
function url(spec: UrlSpec & { default?: string }): Declared<string | undefined> {
  return {
    default: defaultText(spec.documentedDefault, spec.default),
    accepts: spec.accepts ?? 'an http(s) URL',
    description: spec.description,
    read: (env: Env, name: string) => {
      const url = envUrl(env, name);
      const value = spec.verbatim && url !== undefined ? envString(env, name) : url;
      if (value !== undefined) refuse(name, spec.check?.(value));
      return value ?? spec.default;
    },
  };
}

const BASE_URL = {
  any: ['http(s) base URL', 'http(s) base URLs'],
  loopback: ['https base URL (http on loopback only)', 'https base URLs (http on loopback only)'],
};

/** One base URL (no query, fragment or credentials), without its trailing `/`. */
function baseUrl(http: 'any' | 'loopback', spec: Spec): Declared<string | undefined> {
  return {
    default: defaultText(spec.documentedDefault),
    accepts: `an ${BASE_URL[http][0]}`,
    description: spec.description,
    read: (env, name) => {
      const raw = envString(env, name);
      try {
        return raw === undefined ? undefined : normaliseBaseUrl(raw, http);
      } catch (error) {
        throw new ConfigError(name, (error as Error).message);
      }
    },
  };
}

/** A comma-separated allowlist of base URLs, each normalised. */
function baseUrls(http: 'any' | 'loopback', spec: Spec): Declared<string[]> {
  return {
    default: defaultText(spec.documentedDefault),
    accepts: `comma-separated ${BASE_URL[http][1]}`,
    description: spec.description,
    read: (env, name) => envBaseUrls(env, name, http),
  };
}

interface ListSpec extends Spec {
  default?: readonly string[];
  /** Between entries: a comma (default) or white space. */
  separator?: ',' | ' ';
  /** Entries lowercased. */
  lower?: boolean;
  accepts?: string;
  /** The problem with the entries (`has "x", which is not ...`), or undefined. */
  check?: (entries: string[]) => string | undefined;
}

/** A list of entries, trimmed, empty ones left out. */
function list(spec: ListSpec): Declared<string[]> {
  const separator = spec.separator ?? ',';
  return {
    default: defaultText(spec.documentedDefault, spec.default?.join(separator)),
    accepts: spec.accepts ?? (separator === ',' ? 'comma-separated' : 'separated by spaces'),
    description: spec.description,
    read: (env, name) => {
      const raw = envString(env, name);
      if (raw === undefined) return [...(spec.default ?? [])];
      const entries = raw
        .split(separator === ',' ? ',' : /\s+/)
        .map((entry) => (spec.lower ? entry.trim().toLowerCase() : entry.trim()))
        .filter((entry) => entry !== '');
      refuse(name, spec.check?.(entries));
      return entries;
    },
  };
}

/** The kinds of variable: `Var.int({ default: 5, min: 1, max: 100, description: '...' })`. */
export const Var = { int, string, bool, oneOf, url, baseUrl, baseUrls, list };

/**
 * A family of variables rather than one (`FEATURE_<NAME>`, `CHANNEL_*`): documented, but read by
 * the config function under each concrete name (`group.declared['FEATURE_<NAME>'].read(...)`).
 */
type Family = `${string}<${string}>${string}` | `${string}*${string}`;
const isFamily = (name: string) => /<.+>|\*/.test(name);

type Declarations = Record<string, Declared<unknown>>;
/** The values of a group's variables (families left out), by name. */
export type Values<D extends Declarations> = {
  -readonly [K in keyof D as K extends Family ? never : K]: D[K] extends Declared<infer T>
    ? T
    : never;
};

export interface VariableGroup<D extends Declarations> {
  readonly declared: D;
  /** The README's rows, in the order declared. */
  readonly variables: readonly Variable[];
  /** Every variable of the group (families aside), checked: a bad value throws a ConfigError. */
  read(env: Env): Values<D>;
  /** One variable of the group (and those its bounds name), checked. */
  value<K extends keyof Values<D> & string>(env: Env, name: K): Values<D>[K];
}

/** A group of variables, each declared once: `declareVariables({ NAME: Var.int({...}), ... })`. */
export function declareVariables<D extends Declarations>(declared: D): VariableGroup<D> {
  const variables = Object.entries(declared).map(([name, d]) => ({
    name,
    default: d.default,
    accepts: d.accepts,
    description: d.description,
  }));
  /** Reads each variable once, those its bounds name first. */
  const reader = (env: Env) => {
    const values = new Map<string, unknown>();
    const resolve = (name: string): unknown => {
      if (!values.has(name)) {
        const declaration = declared[name];
        if (!declaration || isFamily(name)) throw new Error(`${name} is not declared here`);
        values.set(name, declaration.read(env, name, resolve));
      }
      return values.get(name);
    };
    return { values, resolve };
  };
  return {
    declared,
    variables,
    read(env) {
      const { values, resolve } = reader(env);
      for (const name of Object.keys(declared)) if (!isFamily(name)) resolve(name);
      return Object.fromEntries(values) as Values<D>;
    },
    value: (env, name) => reader(env).resolve(name) as never,
  };
}

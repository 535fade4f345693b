// Reading DTCG 2025.10 token trees: groups, tokens, `$type` inheritance, `$deprecated`,
// `$extensions`, `$root` tokens and group `$extends`. Every problem has its JSON path
// (`<file>#/<pointer>`); what is read but not kept is listed in `ignored`.

export type Json = Record<string, unknown>;

export interface RawToken {
  /** Dotted path, as aliases name it: `color.blue.500`. */
  path: string;
  /** Where it was read: `<file>#/color/blue/500`. */
  at: string;
  /** Its own `$type` or its groups'; undefined when the value is an alias that gives it. */
  type?: string;
  value: unknown;
  description?: string;
  deprecated?: boolean | string;
  extensions?: Json;
}

export interface Ignored {
  path: string;
  reason: string;
}

/** What reading one resolution (one or more trees merged in order) gathers. */
export interface Reading {
  tokens: Map<string, RawToken>;
  /** Groups that extend another: group path -> the group path it extends. */
  extends: Array<{ group: string; target: string; at: string }>;
  problems: string[];
  ignored: Ignored[];
}

export const newReading = (): Reading => ({
  tokens: new Map(),
  extends: [],
  problems: [],
  ignored: [],
});

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const pointer = (parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * The token path an alias names: `{a.b}`, or `{ "$ref": "#/a/b" }` (its `/$value` allowed);
 * null when the value is not an alias.
 */
export function aliasPath(value: unknown): string | null {
  if (typeof value === 'string') return /^\{([^{}]+)\}$/.exec(value)?.[1] ?? null;
  if (!isObject(value) || typeof value.$ref !== 'string' || Object.keys(value).length !== 1)
    return null;
  const ref = value.$ref;
  if (!ref.startsWith('#/')) return null;
  const parts = ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts.at(-1) === '$value') parts.pop();
  return parts.includes('$value') ? null : parts.join('.');
}

const TOKEN_PROPS = ['$value', '$type', '$description', '$deprecated', '$extensions'];
const GROUP_PROPS = ['$type', '$description', '$deprecated', '$extensions', '$extends', '$schema'];

/** Names that would reach an object's prototype where a name indexes a table: refused. */
export const RESERVED_NAMES = ['__proto__', 'constructor', 'prototype'];
/** How deep groups nest at most. */
export const MAX_DEPTH = 64;
/** How many tokens a resolution may hold once groups' `$extends` are applied. */
export const MAX_TOKENS = 20_000;

/** Reads a tree into `into` (a later token at a path replaces an earlier one). */
export function readTree(doc: unknown, file: string, into: Reading): void {
  if (!isObject(doc)) {
    into.problems.push(`${file}#: a token file is a JSON object`);
    return;
  }
  const walk = (
    node: Json,
    parts: string[],
    at: string,
    type: string | undefined,
    deprecated: boolean | string | undefined,
  ) => {
    const path = parts.join('.');
    if (node.$type !== undefined && typeof node.$type !== 'string')
      into.problems.push(`${at}/$type: a type is a string`);
    const groupType = typeof node.$type === 'string' ? node.$type : type;
    const groupDeprecated = (node.$deprecated as boolean | string | undefined) ?? deprecated;
    if (parts.length > 0) {
      for (const key of ['$description', '$extensions'])
        if (node[key] !== undefined)
          into.ignored.push({ path: `${at}/${key}`, reason: `a group's ${key} is not kept` });
      if (node.$extends !== undefined) {
        const target = aliasPath(node.$extends);
        if (target === null)
          into.problems.push(`${at}/$extends: a group reference ({group} or {"$ref"}) is expected`);
        else into.extends.push({ group: path, target, at: `${at}/$extends` });
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('$') && key !== '$root') {
        if (!GROUP_PROPS.includes(key))
          into.ignored.push({ path: `${at}/${key}`, reason: `${key} is not a DTCG property` });
        continue;
      }
      const childAt = `${at}/${pointer([key])}`;
      if (/[{}.]/.test(key)) {
        into.problems.push(`${childAt}: a name cannot contain {, } or .`);
        continue;
      }
      if (RESERVED_NAMES.includes(key)) {
        into.problems.push(`${childAt}: ${key} is not allowed as a name`);
        continue;
      }
      if (!isObject(child)) {
        into.problems.push(`${childAt}: a token or group is an object`);
        continue;
      }
      if (!Object.hasOwn(child, '$value')) {
        if (key === '$root') into.problems.push(`${childAt}: $root is a token (it needs $value)`);
        else if (parts.length + 1 >= MAX_DEPTH)
          into.problems.push(`${childAt}: groups nest at most ${MAX_DEPTH} deep`);
        else walk(child, [...parts, key], childAt, groupType, groupDeprecated);
        continue;
      }
      readToken(child, [...parts, key], childAt, groupType, groupDeprecated);
    }
  };
  const readToken = (
    token: Json,
    parts: string[],
    at: string,
    groupType: string | undefined,
    deprecated: boolean | string | undefined,
  ) => {
    for (const key of Object.keys(token))
      if (!TOKEN_PROPS.includes(key))
        into.problems.push(
          `${at}/${pointer([key])}: ${key.startsWith('$') ? 'not a token property' : 'a token cannot contain tokens or groups'}`,
        );
    if (token.$type !== undefined && typeof token.$type !== 'string')
      into.problems.push(`${at}/$type: a type is a string`);
    if (token.$description !== undefined && typeof token.$description !== 'string')
      into.problems.push(`${at}/$description: a description is a string`);
    if (
      token.$deprecated !== undefined &&
      typeof token.$deprecated !== 'boolean' &&
      typeof token.$deprecated !== 'string'
    )
      into.problems.push(`${at}/$deprecated: true, false or an explanation is expected`);
    if (token.$extensions !== undefined && !isObject(token.$extensions))
      into.problems.push(`${at}/$extensions: an object is expected`);
    const path = parts.join('.');
    const previous = into.tokens.get(path);
    const own = typeof token.$type === 'string' ? token.$type : undefined;
    into.tokens.set(path, {
      path,
      at,
      // A token without a type of its own or its groups' overrides one of a type: it keeps it.
      type: own ?? groupType ?? (aliasPath(token.$value) === null ? previous?.type : undefined),
      value: token.$value,
      description: typeof token.$description === 'string' ? token.$description : undefined,
      deprecated: (token.$deprecated as boolean | string | undefined) ?? deprecated,
      extensions: isObject(token.$extensions) ? token.$extensions : undefined,
    });
  };
  walk(doc, [], `${file}#`, undefined, undefined);
}

/**
 * Applies the groups' `$extends`: a group gets every token of the group it extends that it does
 * not define itself (the extended group's own `$extends` first). A cycle is a problem, and so is
 * an expansion beyond MAX_TOKENS tokens.
 */
export function applyExtends(reading: Reading): void {
  if (reading.extends.length === 0) return;
  // Tokens and extending groups by every group they are under (`a.b.c` is under `a` and `a.b`).
  const under = <T>(index: Map<string, T[]>, path: string, item: T) => {
    const parts = path.split('.');
    for (let i = 1; i < parts.length; i++) {
      const group = parts.slice(0, i).join('.');
      (index.get(group) ?? index.set(group, []).get(group)!).push(item);
    }
  };
  const tokensUnder = new Map<string, RawToken[]>();
  for (const token of reading.tokens.values()) under(tokensUnder, token.path, token);
  const extendsAt = new Map<string, Array<Reading['extends'][number]>>();
  for (const entry of reading.extends) {
    (extendsAt.get(entry.group) ?? extendsAt.set(entry.group, []).get(entry.group)!).push(entry);
    under(extendsAt, entry.group, entry);
  }
  const done = new Set<string>();
  let overflow = false;
  const apply = (entry: Reading['extends'][number], seen: string[]) => {
    if (done.has(entry.group) || overflow) return;
    if (seen.includes(entry.group)) {
      reading.problems.push(
        `${entry.at}: $extends makes a cycle: ${[...seen, entry.group].join(' -> ')}`,
      );
      done.add(entry.group);
      return;
    }
    for (const inner of extendsAt.get(entry.target) ?? []) apply(inner, [...seen, entry.group]);
    const prefix = `${entry.target}.`;
    const inherited = [...(tokensUnder.get(entry.target) ?? [])];
    if (reading.tokens.has(entry.target))
      reading.problems.push(`${entry.at}: extends ${entry.target}, which is a token, not a group`);
    else if (inherited.length === 0)
      reading.problems.push(`${entry.at}: extends ${entry.target}, which is not a group`);
    for (const token of inherited) {
      const path = `${entry.group}.${token.path.slice(prefix.length)}`;
      if (reading.tokens.has(path)) continue;
      if (reading.tokens.size >= MAX_TOKENS) {
        reading.problems.push(`${entry.at}: $extends makes more than ${MAX_TOKENS} tokens`);
        overflow = true;
        return;
      }
      const copy = { ...token, path };
      reading.tokens.set(path, copy);
      under(tokensUnder, path, copy);
    }
    done.add(entry.group);
  };
  for (const entry of reading.extends) apply(entry, []);
}

/** Adds a reading of one source to a resolution's (what reading them in order gives). */
export function mergeReading(into: Reading, from: Reading): void {
  for (const [path, token] of from.tokens) {
    const previous = into.tokens.get(path)?.type;
    // A token without a type of its own or its groups' overrides one of a type: it keeps it.
    const keeps =
      token.type === undefined && previous !== undefined && aliasPath(token.value) === null;
    into.tokens.set(path, keeps ? { ...token, type: previous } : token);
  }
  into.extends.push(...from.extends);
  into.problems.push(...from.problems);
  into.ignored.push(...from.ignored);
}

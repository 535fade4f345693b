import {
  applyExtends,
  isObject,
  mergeReading,
  newReading,
  RESERVED_NAMES,
  readTree,
  type Ignored,
  type Json,
  type RawToken,
  type Reading,
} from './tree.js';

// The DTCG Resolver Module 2025.10: sets, modifiers and their contexts, resolutionOrder. Sources
// are inline trees or references to the documents sent with the resolver (`documents`), never
// fetched. The default resolution (every modifier at its default context) gives the tokens'
// values; every other context of a modifier is a mode (`<modifier>:<context>`) holding the tokens
// whose value differs there.

export interface ImportReading {
  base: Reading;
  /** Mode -> the tokens whose value differs from the default resolution. */
  modes: Map<string, Map<string, RawToken>>;
  /** Each mode's whole resolution (aliases inside a mode resolve in it). */
  resolutions: Map<string, Reading>;
  problems: string[];
  ignored: Ignored[];
  /** The resolver's modifiers, with their default context, in resolution order. */
  modifiers: Array<{ name: string; contexts: string[]; default: string }>;
}

type Source = unknown;
interface Item {
  kind: 'set' | 'modifier';
  name: string;
  sources?: Source[];
  contexts?: Map<string, Source[]>;
  default?: string;
  at: string;
}

/** How many sources all resolutions together may read (sets x contexts). */
export const MAX_READS = 5_000;
/** A modifier's or a context's name: it makes a mode, and a CSS selector (`[data-m="c"]`). */
export const MODE_NAME = /^[A-Za-z0-9_-]+$/;

/** Whether a document is a resolver rather than a token tree. */
export const isResolver = (doc: unknown) => isObject(doc) && Array.isArray(doc.resolutionOrder);

/** A table's own entry (never one its prototype has). */
const own = (table: Json, key: string): unknown =>
  Object.hasOwn(table, key) ? table[key] : undefined;

export function readImport(doc: unknown, documents: Record<string, unknown> = {}): ImportReading {
  if (!isResolver(doc)) {
    const base = newReading();
    readTree(doc, 'document', base);
    applyExtends(base);
    return {
      base,
      modes: new Map(),
      resolutions: new Map(),
      problems: base.problems,
      ignored: base.ignored,
      modifiers: [],
    };
  }
  const resolver = doc as Json;
  const problems: string[] = [];
  const ignored: Ignored[] = [];
  if (resolver.version !== '2025.10')
    problems.push(`resolver#/version: must be "2025.10" (is ${JSON.stringify(resolver.version)})`);
  const sets = isObject(resolver.sets) ? resolver.sets : {};
  const modifiers = isObject(resolver.modifiers) ? resolver.modifiers : {};
  const items: Item[] = [];
  const asItem = (raw: unknown, at: string): Item | null => {
    let value = raw;
    let kind: Item['kind'] | undefined;
    let name = '';
    if (isObject(raw) && typeof raw.$ref === 'string') {
      const match = /^#\/(sets|modifiers)\/([^/]+)$/.exec(raw.$ref);
      const table = match?.[1] === 'sets' ? sets : modifiers;
      if (!match || !isObject(own(table, match[2]))) {
        problems.push(`${at}: ${raw.$ref} is not a set or modifier of the resolver`);
        return null;
      }
      [kind, name, value] = [match[1] === 'sets' ? 'set' : 'modifier', match[2], table[match[2]]];
    } else if (isObject(raw) && (raw.type === 'set' || raw.type === 'modifier')) {
      kind = raw.type;
      if (typeof raw.name !== 'string' || raw.name === '') {
        problems.push(`${at}/name: an inline ${kind} has a name`);
        return null;
      }
      name = raw.name;
    }
    if (!kind || !isObject(value)) {
      problems.push(`${at}: a reference to a set or modifier, or an inline one, is expected`);
      return null;
    }
    if (items.some((i) => i.name === name)) {
      problems.push(`${at}: ${name} is already in the resolutionOrder (names are unique)`);
      return null;
    }
    if (kind === 'set') {
      if (!Array.isArray(value.sources)) problems.push(`${at}: a set has sources (an array)`);
      return { kind, name, sources: Array.isArray(value.sources) ? value.sources : [], at };
    }
    if (!MODE_NAME.test(name) || RESERVED_NAMES.includes(name))
      problems.push(
        `${at}: the modifier name ${JSON.stringify(name)} is not letters, digits, _ and -`,
      );
    const raws = isObject(value.contexts) ? value.contexts : {};
    const contexts = new Map<string, Source[]>();
    for (const [c, sources] of Object.entries(raws)) {
      if (!MODE_NAME.test(c) || RESERVED_NAMES.includes(c))
        problems.push(`${at}/contexts/${c}: a context name is letters, digits, _ and -`);
      if (Array.isArray(sources)) contexts.set(c, sources);
      else problems.push(`${at}/contexts/${c}: an array of sources is expected`);
    }
    if (Object.keys(raws).length === 0) problems.push(`${at}: modifier ${name} has no contexts`);
    let fallback: string | undefined;
    if (value.default !== undefined && typeof value.default !== 'string')
      problems.push(`${at}/default: the name of a context is expected`);
    else if (value.default !== undefined && !contexts.has(value.default))
      problems.push(`${at}/default: ${JSON.stringify(value.default)} is not a context of ${name}`);
    else fallback = value.default;
    if (fallback === undefined && contexts.size > 0) {
      fallback = [...contexts.keys()][0];
      if (value.default === undefined)
        ignored.push({
          path: `${at}/default`,
          reason: `no default: ${name}'s first context (${fallback}) is its default`,
        });
    }
    return { kind, name, contexts, default: fallback, at };
  };
  (resolver.resolutionOrder as unknown[]).forEach((raw, i) => {
    const item = asItem(raw, `resolver#/resolutionOrder/${i}`);
    if (item) items.push(item);
  });

  // Each source is read once (a document by its $ref, an inline tree by itself), then merged into
  // every resolution that has it.
  const byRef = new Map<string, Reading>();
  const inline = new Map<unknown, Reading>();
  const bySet = new Map<string, Reading[]>();
  const readOnce = (cache: Map<unknown, Reading>, key: unknown, doc: unknown, file: string) => {
    let reading = cache.get(key);
    if (!reading) {
      reading = newReading();
      readTree(doc, file, reading);
      cache.set(key, reading);
    }
    return reading;
  };
  const fragments = (source: Source, at: string, depth = 0): Reading[] => {
    if (!isObject(source) || typeof source.$ref !== 'string' || Object.keys(source).length !== 1)
      return [readOnce(inline, source, source, at)];
    const ref = source.$ref;
    const set = /^#\/sets\/([^/]+)$/.exec(ref);
    const failed = (problem: string) => {
      const reading = newReading();
      reading.problems.push(`${at}: ${problem}`);
      return [reading];
    };
    if (set) {
      const target = own(sets, set[1]);
      if (!isObject(target) || !Array.isArray(target.sources) || depth > 5)
        return failed(`${ref} is not a set of the resolver`);
      if (!bySet.has(set[1]))
        bySet.set(
          set[1],
          target.sources.flatMap((s, i) =>
            fragments(s, `resolver#/sets/${set[1]}/sources/${i}`, depth + 1),
          ),
        );
      return bySet.get(set[1])!;
    }
    if (ref.startsWith('#/modifiers/')) return failed('a source cannot refer to a modifier');
    if (ref.startsWith('#'))
      return failed(`${ref}: a $ref into a $value or group is not supported`);
    if (!Object.hasOwn(documents, ref))
      return failed(`${ref} is not among the documents sent (sources are never fetched)`);
    return [readOnce(byRef, ref, documents[ref], ref)];
  };
  let reads = 0;
  const resolve = (inputs: Map<string, string>) => {
    const reading = newReading();
    for (const item of items) {
      const context = inputs.get(item.name) ?? '';
      const sources = item.kind === 'set' ? item.sources! : (item.contexts?.get(context) ?? []);
      const where = item.kind === 'set' ? `${item.at}/sources` : `${item.at}/contexts/${context}`;
      sources.forEach((s, i) => {
        for (const fragment of fragments(s, `${where}/${i}`)) {
          reads += 1;
          if (reads <= MAX_READS) mergeReading(reading, fragment);
        }
      });
    }
    reads += 1;
    if (reads > MAX_READS)
      reading.problems.push(
        `resolver#: its resolutions read more than ${MAX_READS} sources (sets times contexts)`,
      );
    else applyExtends(reading);
    return reading;
  };
  const mods = items.filter((i) => i.kind === 'modifier');
  const defaults = new Map(mods.map((m) => [m.name, m.default ?? '']));
  const base = resolve(defaults);
  const modes = new Map<string, Map<string, RawToken>>();
  const resolutions = new Map<string, Reading>();
  for (const mod of mods)
    for (const context of mod.contexts?.keys() ?? []) {
      if (context === mod.default || reads > MAX_READS) continue;
      const mode = `${mod.name}:${context}`;
      const reading = resolve(new Map([...defaults, [mod.name, context]]));
      const changed = new Map<string, RawToken>();
      for (const [path, token] of reading.tokens) {
        const before = base.tokens.get(path);
        if (!before) {
          reading.problems.push(
            `${token.at}: ${path} is only in ${mode}: a token needs a value in the default resolution`,
          );
          continue;
        }
        if (
          JSON.stringify(before.value) !== JSON.stringify(token.value) ||
          before.type !== token.type
        )
          changed.set(path, token);
      }
      modes.set(mode, changed);
      resolutions.set(mode, reading);
      problems.push(...reading.problems);
      ignored.push(...reading.ignored);
    }
  problems.unshift(...base.problems);
  ignored.unshift(...base.ignored);
  for (const key of Object.keys(resolver))
    if (
      ![
        'name',
        'version',
        'description',
        'sets',
        'modifiers',
        'resolutionOrder',
        '$schema',
      ].includes(key)
    )
      ignored.push({ path: `resolver#/${key}`, reason: 'not a property of a resolver' });
  const unique = <T>(list: T[]) => [...new Map(list.map((x) => [JSON.stringify(x), x])).values()];
  return {
    base,
    modes,
    resolutions,
    problems: unique(problems),
    ignored: unique(ignored),
    modifiers: mods.map((m) => ({
      name: m.name,
      contexts: [...(m.contexts?.keys() ?? [])],
      default: m.default ?? '',
    })),
  };
}

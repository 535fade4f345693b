import { readFileSync } from 'node:fs';
import { invoke } from '../api.js';
import { usageError } from '../errors.js';
import type { Output } from '../output.js';

/** The extension the palette's own JSON export writes (cssVariable, dark, category). */
const EXTENSION = 'com.platform.palette';

const GENERIC = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'emoji',
  'math',
  'fangsong',
  'inherit',
]);

type Json = Record<string, unknown>;
interface TokenInput {
  name: string;
  category: string;
  value: string;
  dark?: string;
  cssVariable?: string;
  group: string | null;
  description: string | null;
}

const px = (v: unknown) => (typeof v === 'number' ? `${v}px` : String(v));

/** A DTCG `$value` as the palette's text form (the inverse of its export's dtcgForm). */
export function valueText(type: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (type === 'fontFamily' && Array.isArray(value))
    return value.map((f) => (GENERIC.has(String(f).toLowerCase()) ? f : `"${f}"`)).join(', ');
  if (type === 'cubicBezier' && Array.isArray(value)) return `cubic-bezier(${value.join(', ')})`;
  if (type === 'shadow') {
    const layers = (Array.isArray(value) ? value : [value]) as Json[];
    return layers
      .map((l) =>
        [
          l.inset ? 'inset' : '',
          px(l.offsetX),
          px(l.offsetY),
          px(l.blur),
          px(l.spread),
          l.color ?? '',
        ]
          .filter((p) => p !== '')
          .join(' '),
      )
      .join(', ');
  }
  if (typeof value === 'number') return String(value);
  throw usageError(`Cannot read a ${type} value: ${JSON.stringify(value)}`);
}

/** The category of a token: the extension's when the file has one, else from `$type`, path and value. */
export function categoryOf(type: string, path: string, value: unknown, extension: Json): string {
  if (typeof extension.category === 'string') return extension.category;
  const p = path.toLowerCase();
  const direct: Record<string, string> = {
    color: 'color',
    shadow: 'shadow',
    duration: 'motion',
    fontFamily: 'font-family',
    fontWeight: 'font-weight',
    cubicBezier: 'easing',
  };
  if (direct[type]) return direct[type];
  if (type === 'number') {
    if (/line-?height|leading/.test(p)) return 'line-height';
    if (Number.isInteger(value) && !/opacity/.test(p)) return 'z-index';
    return Number(value) >= 0 && Number(value) <= 1 ? 'opacity' : 'line-height';
  }
  const hints: Array<[RegExp, string]> = [
    [/radius|rounded/, 'radius'],
    [/breakpoint|screen/, 'breakpoint'],
    [/border/, 'border'],
    [/letter|tracking/, 'letter-spacing'],
    [/line-?height|leading/, 'line-height'],
    [/font|text|typography|size/, 'typography'],
  ];
  return hints.find(([re]) => re.test(p))?.[1] ?? 'spacing';
}

/** The tokens of a DTCG document (nested groups; `$type` inherited from a group, as DTCG says). */
export function readTokens(document: unknown): TokenInput[] {
  const tokens: TokenInput[] = [];
  const walk = (node: Json, path: string[], inherited?: string) => {
    const groupType = typeof node.$type === 'string' ? node.$type : inherited;
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('$') || !child || typeof child !== 'object') continue;
      const c = child as Json;
      if (!('$value' in c)) {
        walk(c, [...path, key], groupType);
        continue;
      }
      const type = (c.$type as string) ?? groupType;
      if (!type) throw usageError(`${[...path, key].join('.')}: no $type`);
      const extension = ((c.$extensions as Json | undefined)?.[EXTENSION] ?? {}) as Json;
      tokens.push({
        name: key,
        group: path.length ? path.join('.') : null,
        category: categoryOf(type, [...path, key].join('.'), c.$value, extension),
        value: valueText(type, c.$value),
        ...(extension.dark !== undefined ? { dark: valueText(type, extension.dark) } : {}),
        ...(typeof extension.cssVariable === 'string'
          ? { cssVariable: extension.cssVariable }
          : {}),
        description: typeof c.$description === 'string' ? c.$description : null,
      });
    }
  };
  if (!document || typeof document !== 'object')
    throw usageError('The tokens file must hold a JSON object');
  walk(document as Json, []);
  return tokens;
}

const aliasesOf = (t: TokenInput) =>
  [t.value, t.dark]
    .filter((v): v is string => !!v && /^\{.+\}$/.test(v))
    .map((v) => v.slice(1, -1));

/** Targets before the tokens that refer to them (aliases are checked by the palette on write). */
function ordered(tokens: TokenInput[]): TokenInput[] {
  const byPath = new Map(tokens.map((t) => [t.group ? `${t.group}.${t.name}` : t.name, t]));
  const done = new Set<TokenInput>();
  const out: TokenInput[] = [];
  const visit = (t: TokenInput, seen: Set<TokenInput>) => {
    if (done.has(t) || seen.has(t)) return;
    seen.add(t);
    for (const path of aliasesOf(t)) {
      const target = byPath.get(path);
      if (target) visit(target, seen);
    }
    done.add(t);
    out.push(t);
  };
  tokens.forEach((t) => visit(t, new Set()));
  return out;
}

const pathOf = (t: { group: string | null; name: string }) =>
  t.group ? `${t.group}.${t.name}` : t.name;

/** Every token of the palette, a page of 1000 at a time. */
async function existingTokens() {
  const all: Array<{ id: string; name: string; group: string | null }> = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await invoke<typeof all>('palette.listTokens', { query: { limit: 1000, offset } });
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

/**
 * Which stored token each token of the file is, as the palette identifies tokens: by its path,
 * `group.name` (any case). Names are unique in the palette, so two tokens of the file with one
 * name (`color.blue.500`, `color.red.500`), or one whose name a token elsewhere has, refuse the
 * whole file (exit 2) naming both paths: nothing is overwritten in silence.
 */
export function matchTokens(
  tokens: TokenInput[],
  existing: Array<{ id: string; name: string; group: string | null }>,
) {
  const problems: string[] = [];
  const byName = new Map<string, TokenInput>();
  for (const token of tokens) {
    const other = byName.get(token.name.toLowerCase());
    if (other)
      problems.push(
        `${pathOf(other)} and ${pathOf(token)} would both be the token ${token.name} (names are unique in the palette)`,
      );
    else byName.set(token.name.toLowerCase(), token);
  }
  const storedByPath = new Map(existing.map((t) => [pathOf(t).toLowerCase(), t]));
  const storedByName = new Map(existing.map((t) => [t.name.toLowerCase(), t]));
  const ids = new Map<TokenInput, string>();
  for (const token of tokens) {
    const same = storedByPath.get(pathOf(token).toLowerCase());
    const named = storedByName.get(token.name.toLowerCase());
    if (same) ids.set(token, same.id);
    else if (named)
      problems.push(
        `${pathOf(token)}: the palette's token ${named.name} is at ${pathOf(named)} (names are unique: rename or move one first)`,
      );
  }
  if (problems.length > 0)
    throw usageError(
      `Nothing imported: ${problems.length} token${problems.length === 1 ? '' : 's'} collide\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
  return ids;
}

/** `platform palette import`: updates the tokens the palette has at the same path, creates the others. */
export async function importPalette(file: string, out: Output): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw usageError(`${file} is not valid JSON`);
  }
  const tokens = ordered(readTokens(document));
  const ids = matchTokens(tokens, await existingTokens());
  const bar = out.progress(tokens.length, 'Importing');
  let created = 0;
  let updated = 0;
  for (const token of tokens) {
    const id = ids.get(token);
    try {
      if (id) {
        await invoke('palette.updateToken', {
          path: { idOrName: id },
          body: { ...token, dark: token.dark ?? null },
        });
        updated++;
      } else {
        await invoke('palette.createToken', { body: token });
        created++;
      }
    } catch (error) {
      bar.stop();
      throw withToken(error, token);
    }
    bar.increment();
  }
  bar.stop();
  out.data(
    { created, updated, tokens: tokens.length },
    undefined,
    () => `Imported ${tokens.length} tokens: ${created} created, ${updated} updated`,
  );
}

function withToken(error: unknown, token: TokenInput) {
  if (error instanceof Error) error.message = `Token ${pathOf(token)}: ${error.message}`;
  return error;
}

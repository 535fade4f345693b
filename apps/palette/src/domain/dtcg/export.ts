import { converter, formatHex, parse } from 'culori';
import { tokenPath } from '../../schemas/tokens.js';
import type { ExportToken, TokenSet } from '../exports.js';
import { categorySpec, DEFAULT_CATEGORY } from '../tokens.js';
import { dtcgForm, type ShadowLayer } from '../values.js';
import { DARK_MODE, derivedVariable, EXTENSION } from './plan.js';

// The DTCG 2025.10 export: what an import read is written back as it was read (the source kept);
// tokens made in the palette take the 2025.10 form of their value. With modes, a resolver and its
// documents (`{ resolver, documents }`, what the import takes).

type Json = Record<string, unknown>;
const toRgb = converter('rgb');

/** A CSS color as a 2025.10 sRGB color, or null. */
function colorOf(css: string) {
  const color = parse(css);
  if (!color) return null;
  const rgb = toRgb(color);
  const round = (n: number) => +n.toPrecision(6);
  return {
    colorSpace: 'srgb',
    components: [round(rgb.r), round(rgb.g), round(rgb.b)],
    ...(rgb.alpha !== undefined && rgb.alpha !== 1 ? { alpha: rgb.alpha } : {}),
    hex: formatHex(rgb),
  };
}

/** `16px`, `-1rem`, `120ms`, `0` as { value, unit }, or null. */
function unitOf(css: string, units: 'px|rem' | 'ms|s') {
  if (/^[+-]?0*\.?0+$/.test(css)) return { value: 0, unit: units === 'px|rem' ? 'px' : 'ms' };
  const match = new RegExp(`^([+-]?\\d*\\.?\\d+)(${units})$`).exec(css);
  return match ? { value: Number(match[1]), unit: match[2] } : null;
}

/** A CSS text value of a category in its 2025.10 form, or null when 2025.10 cannot say it. */
function fromCss(t: ExportToken, css: string): { type: string; value: unknown } | null {
  const form = dtcgForm(categorySpec(t.category).kind, css);
  if (form.type === 'color') {
    const value = colorOf(css);
    return value && { type: 'color', value };
  }
  if (form.type === 'dimension' || form.type === 'duration') {
    const value = unitOf(String(form.value), form.type === 'dimension' ? 'px|rem' : 'ms|s');
    return value && { type: form.type, value };
  }
  if (form.type === 'shadow') {
    const layers = (Array.isArray(form.value) ? form.value : [form.value]) as ShadowLayer[];
    const out = layers.map((l) => {
      const [color, offsetX, offsetY, blur, spread] = [
        colorOf(l.color),
        ...[l.offsetX, l.offsetY, l.blur, l.spread].map((d) => unitOf(d, 'px|rem')),
      ];
      if (!color || !offsetX || !offsetY || !blur || !spread) return null;
      return { color, offsetX, offsetY, blur, spread, ...(l.inset ? { inset: true } : {}) };
    });
    if (out.some((l) => l === null)) return null;
    return { type: 'shadow', value: out.length === 1 ? out[0] : out };
  }
  if (categorySpec(t.category).kind === 'composite') return null;
  return form;
}

/** A token's `$value` in a mode: the source's, an alias, or its CSS in 2025.10 form. */
function valueIn(set: TokenSet, t: ExportToken, mode: string, source: unknown) {
  if (source !== undefined) return { value: source };
  const target = set.target(t, mode);
  if (target) return { value: `{${tokenPath(target)}}` };
  const literal = set.literal(t, mode);
  const form = literal && fromCss(t, literal.value);
  return form ? { value: form.value } : null;
}

/** An object without a prototype: any name is an own key of it, none reaches Object. */
export const table = <T = unknown>() => Object.create(null) as Record<string, T>;

/** Puts a token at its dotted path in a tree of prototype-less groups. */
export function place(doc: Json, path: string, token: Json) {
  const parts = path.split('.');
  let node = doc;
  for (const part of parts.slice(0, -1))
    node = (Object.hasOwn(node, part) ? node[part] : (node[part] = table())) as Json;
  node[parts.at(-1)!] = token;
}

/**
 * `defaults`: each modifier's default context as an import read it (else `light` for theme,
 * `default` for others, or a name no other context has).
 */
export function toDtcgDocument(set: TokenSet, defaults: Map<string, string> = new Map()): Json {
  const documents = table<Json>();
  documents['tokens.json'] = table();
  const leftOut: Array<{ path: string; reason: string }> = [];
  const modes = new Set<string>();
  for (const t of set.tokens) {
    const path = tokenPath(t);
    const type =
      categorySpec(t.category).dtcg === 'number' &&
      t.category === 'line-height' &&
      /[a-z]$/.test(t.value_default)
        ? 'dimension'
        : categorySpec(t.category).dtcg;
    const main = valueIn(set, t, 'light', t.source?.value);
    if (!main) {
      leftOut.push({ path, reason: `its value ${t.value_default} has no DTCG 2025.10 form` });
      continue;
    }
    const extension: Json = { ...((t.source?.extensions?.[EXTENSION] as Json | undefined) ?? {}) };
    if (t.category !== DEFAULT_CATEGORY[type]) extension.category = t.category;
    else delete extension.category;
    if (t.cssVariable !== derivedVariable(path)) extension.cssVariable = t.cssVariable;
    else delete extension.cssVariable;
    const extensions: Json = { ...(t.source?.extensions ?? {}), [EXTENSION]: extension };
    if (Object.keys(extension).length === 0) delete extensions[EXTENSION];
    place(documents['tokens.json'], path, {
      $type: type,
      $value: main.value,
      ...(t.description ? { $description: t.description } : {}),
      ...(t.source?.deprecated !== undefined ? { $deprecated: t.source.deprecated } : {}),
      ...(Object.keys(extensions).length > 0 ? { $extensions: extensions } : {}),
    });
    const inModes: Array<[string, unknown]> = [
      ...(t.value_dark !== null
        ? [[DARK_MODE, t.source ? t.source.dark : undefined] as [string, unknown]]
        : []),
      ...Object.keys(t.modes ?? {}).map(
        (m) =>
          [m, t.source ? (t.modes![m] as { source?: unknown }).source : undefined] as [
            string,
            unknown,
          ],
      ),
    ];
    for (const [mode, source] of inModes) {
      const value = valueIn(set, t, mode === DARK_MODE ? 'dark' : mode, source);
      if (!value) {
        leftOut.push({ path, reason: `its ${mode} value has no DTCG 2025.10 form` });
        continue;
      }
      modes.add(mode);
      const file = `${mode.replace(':', '/')}.json`;
      place(Object.hasOwn(documents, file) ? documents[file] : (documents[file] = table()), path, {
        $type: type,
        $value: value.value,
      });
    }
  }
  if (leftOut.length > 0) documents['tokens.json'].$extensions = { [EXTENSION]: { leftOut } };
  if (modes.size === 0) return documents['tokens.json'];
  const contexts = new Map<string, string[]>();
  for (const mode of [...modes].sort()) {
    const [modifier, context] = mode.split(':');
    contexts.set(modifier, [...(contexts.get(modifier) ?? []), context]);
  }
  const modifiers = table<{ contexts: Record<string, unknown[]>; default: string }>();
  for (const [modifier, names] of contexts) {
    let fallback = defaults.get(modifier) ?? (modifier === 'theme' ? 'light' : 'default');
    while (names.includes(fallback)) fallback = `${fallback}-base`;
    const own = table<unknown[]>();
    own[fallback] = [];
    for (const context of names) own[context] = [{ $ref: `${modifier}/${context}.json` }];
    modifiers[modifier] = { contexts: own, default: fallback };
  }
  return {
    resolver: {
      version: '2025.10',
      sets: { tokens: { sources: [{ $ref: 'tokens.json' }] } },
      modifiers,
      resolutionOrder: [
        { $ref: '#/sets/tokens' },
        ...Object.keys(modifiers).map((m) => ({ $ref: `#/modifiers/${m}` })),
      ],
    },
    documents,
  };
}

import { parse } from 'culori';
import postcss from 'postcss';

/**
 * The pieces of CSS value syntax the token checks share. Every check starts from `unsafeCss`:
 * a value that passes it cannot end its declaration or its block, open a comment, or close an
 * HTML <style> element, whatever the category's own grammar then says of it.
 */

/** Why a value cannot sit inside one CSS declaration, or null when it can. */
export function unsafeCss(value: string): string | null {
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'a control character (line break, tab ...)';
  const forbidden = /[;{}\\!<>@`]/.exec(value);
  if (forbidden) return `the character ${forbidden[0]}`;
  if (value.includes('/*') || value.includes('*/')) return 'a comment';
  let depth = 0;
  let quote: string | null = null;
  for (const char of value) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')' && --depth < 0) return 'a ) without its (';
  }
  if (quote) return 'a quote that is not closed';
  if (depth > 0) return 'a ( that is not closed';
  return null;
}

/**
 * Why a selector or a media query (of a mode) cannot head a rule of the CSS export, or null when
 * it can: one to 200 characters that `unsafeCss` allows, brackets balanced, and what postcss reads
 * as exactly one rule (`<selector> {}`) or `@media <query> {}` with that very text.
 */
export function preludeProblem(kind: 'selector' | 'media', text: string): string | null {
  const value = text.trim();
  if (value === '' || value.length > 200) return 'one to 200 characters';
  const unsafe = unsafeCss(value);
  if (unsafe) return unsafe;
  let depth = 0;
  let quote: string | null = null;
  for (const char of value) {
    if (quote) quote = char === quote ? null : quote;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '[') depth += 1;
    else if (char === ']' && --depth < 0) return 'a ] without its [';
  }
  if (depth > 0) return 'a [ that is not closed';
  let root: postcss.Root;
  try {
    root = postcss.parse(kind === 'selector' ? `${value}{}` : `@media ${value}{}`);
  } catch {
    return `not a CSS ${kind === 'selector' ? 'selector' : 'media query'}`;
  }
  const [node, ...more] = root.nodes;
  const same =
    more.length === 0 &&
    (kind === 'selector'
      ? node?.type === 'rule' && node.selector === value
      : node?.type === 'atrule' && node.name === 'media' && node.params === value);
  return same ? null : `not one CSS ${kind === 'selector' ? 'selector' : 'media query'}`;
}

/** Splits at top-level occurrences of `separator` (a comma, or runs of spaces), outside ( ). */
export function splitTopLevel(value: string, separator: ',' | ' '): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (const char of value) {
    if (quote) quote = char === quote ? null : quote;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    const splits = !quote && depth === 0 && (separator === ',' ? char === ',' : /\s/.test(char));
    if (splits) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return separator === ' ' ? parts.filter((p) => p !== '') : parts;
}

const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?`;
const LENGTH_UNITS =
  'px|rem|em|%|vw|vh|vi|vb|vmin|vmax|svh|svw|lvh|lvw|dvh|dvw|ch|ex|lh|rlh|cap|ic|rcap|rch|rex|ric|pt|pc|cm|mm|in|q|cqw|cqh|cqi|cqb|cqmin|cqmax';

export const isNumber = (value: string) => new RegExp(`^${NUMBER}$`, 'i').test(value);

/** A plain length: a number and a unit, or 0. */
export const isPlainLength = (value: string, units = LENGTH_UNITS) =>
  /^[+-]?0*\.?0+$/.test(value) || new RegExp(`^${NUMBER}(?:${units})$`, 'i').test(value);

/**
 * A length, or a math function over lengths (`calc()`, `clamp()`, `min()`, `max()`) whose terms
 * are numbers, lengths, operators, nested math functions and `var(--name)`.
 */
export function isLength(value: string): boolean {
  if (isPlainLength(value)) return true;
  if (!/^(calc|clamp|min|max)\(.*\)$/i.test(value) || unsafeCss(value)) return false;
  const term = new RegExp(
    String.raw`\s+|(?:calc|clamp|min|max)\(|var\(\s*--[A-Za-z0-9_-]+\s*\)|${NUMBER}(?:${LENGTH_UNITS})?|[-+*/,()]`,
    'iy',
  );
  let at = 0;
  while (at < value.length) {
    term.lastIndex = at;
    const match = term.exec(value);
    if (!match) return false;
    at += match[0].length;
  }
  return true;
}

const COLOR_FUNCTIONS = /^(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\((.*)\)$/is;
const CUSTOM_PROPERTY = /^--[A-Za-z0-9_-]+$/;

/** `var(--name)` or `var(--name, fallback)`: the name and the fallback (or null). */
export function parseVar(value: string): { name: string; fallback: string | null } | null {
  const match = /^var\((.*)\)$/is.exec(value);
  if (!match) return null;
  const [name, ...rest] = splitTopLevel(match[1], ',');
  if (!CUSTOM_PROPERTY.test(name)) return null;
  return { name, fallback: rest.length > 0 ? rest.join(',').trim() : null };
}

/**
 * A CSS color: anything culori parses (hex, named, rgb(), hsl(), hwb(), lab(), lch(), oklab(),
 * oklch(), color()), `currentColor`, `var(--x)` (with a color fallback if any), `light-dark(a, b)`,
 * `color-mix(in <space>, a [p%], b [p%])`, and the color functions culori cannot read (relative
 * colors, `none`, variables inside): a known function whose arguments are numbers, percentages,
 * angles, keywords, `/`, and nested colors, variables or math.
 */
export function isCssColor(value: string): boolean {
  const v = value.trim();
  if (v === '' || unsafeCss(v)) return false;
  if (/^currentcolor$/i.test(v)) return true;
  if (parse(v) !== undefined) return true;
  const variable = parseVar(v);
  if (variable) return variable.fallback === null || isCssColor(variable.fallback);
  const lightDark = /^light-dark\((.*)\)$/is.exec(v);
  if (lightDark) {
    const args = splitTopLevel(lightDark[1], ',');
    return args.length === 2 && args.every(isCssColor);
  }
  const mix = /^color-mix\((.*)\)$/is.exec(v);
  if (mix) {
    const [space, ...colors] = splitTopLevel(mix[1], ',');
    const percentage = /^(\d+\.?\d*|\.\d+)%$/;
    return (
      /^in\s+[a-z0-9-]+(\s+(shorter|longer|increasing|decreasing)\s+hue)?$/i.test(space) &&
      colors.length === 2 &&
      colors.every((c) => {
        const parts = splitTopLevel(c, ' ');
        const color = parts.filter((p) => !percentage.test(p));
        return parts.length - color.length <= 1 && color.length === 1 && isCssColor(color[0]);
      })
    );
  }
  const fn = COLOR_FUNCTIONS.exec(v);
  if (!fn) return false;
  return splitTopLevel(fn[2].replace(/,/g, ' '), ' ').every(
    (part) =>
      /^(from|none|alpha|[rgbhslwacxyz]|srgb|srgb-linear|display-p3|a98-rgb|prophoto-rgb|rec2020|xyz|xyz-d50|xyz-d65|[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?(%|deg|rad|grad|turn)?|\/)$/i.test(
        part,
      ) ||
      /^calc\([a-z0-9.%+\-*/\s()]*\)$/i.test(part) ||
      isCssColor(part) ||
      isLength(part),
  );
}

/**
 * The color a value shows in a mode, as a color culori computes: `light-dark()` gives the color of
 * the mode. Null for what only a page can compute (`currentColor`, `var()`, `color-mix()` ...).
 */
export function measurableColor(value: string, mode: 'light' | 'dark'): string | null {
  const v = value.trim();
  const lightDark = /^light-dark\((.*)\)$/is.exec(v);
  if (lightDark) {
    const args = splitTopLevel(lightDark[1], ',');
    return args.length === 2 ? measurableColor(args[mode === 'light' ? 0 : 1], mode) : null;
  }
  return parse(v) === undefined ? null : v;
}

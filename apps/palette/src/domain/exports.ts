import type { TokenSource } from '../database.js';
import { toDtcgDocument } from './dtcg/export.js';
import { toDtcg, toTailwindPreset } from './exports-json.js';
import { resolveValue, modeValue, type AliasedValues, type Mode } from './resolve.js';
import { categorySpec, type Category } from './tokens.js';
import { cssForm, EXPECTED, isOfKind } from './values.js';

export interface ExportToken extends AliasedValues {
  name: string;
  category: Category;
  cssVariable: string;
  tailwindKey: string;
  group: string | null;
  description: string | null;
  path?: string | null;
  source?: TokenSource | null;
}

/** Where a mode's values go in CSS (theme:dark has a default of its own). */
export interface ModeSetting {
  name: string;
  selector: string;
  media: string | null;
}

export const FORMATS = ['css', 'json', 'dtcg', 'tailwind', 'tailwind4'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * The tokens of an export, by id, with what every format asks of them. Values are checked again
 * here, not only on write: a value stored before the checks existed, or an alias whose target is
 * gone, is left out (a CSS comment says so) rather than written where it could break the file.
 */
export class TokenSet {
  readonly byId: Map<string, ExportToken>;
  constructor(readonly tokens: ExportToken[]) {
    this.byId = new Map(tokens.map((t) => [t.id, t]));
  }

  /** The token a value is an alias of, in this mode (null: a literal value). */
  target(t: ExportToken, mode: Mode): ExportToken | null | undefined {
    const { ref } = modeValue(t, mode);
    return ref === null ? null : this.byId.get(ref);
  }

  /** The literal value a token ends at, aliases followed, when it is valid for its category. */
  literal(t: ExportToken, mode: Mode): { value: string; token: ExportToken } | null {
    const resolved = resolveValue(t, mode, (id) => this.byId.get(id));
    if (!resolved) return null;
    const { kind } = categorySpec(resolved.token.category);
    return isOfKind(kind, resolved.value) ? resolved : null;
  }

  /** Why a token's value in a mode cannot be exported, or null when it can. */
  problem(t: ExportToken, mode: Mode): string | null {
    if (this.target(t, mode) === undefined) return 'it is an alias of a token that is gone';
    if (!this.literal(t, mode))
      return `its value is not ${EXPECTED[categorySpec(t.category).kind]}`;
    return null;
  }
}

/** Tokens with a dark value of their own. */
const withDark = (tokens: ExportToken[]) => tokens.filter((t) => t.value_dark !== null);

/**
 * Declarations of `tokens` in a mode: `name(t)` gets `value(t)` (its own value, or `var()` of the
 * token it is an alias of); a value that cannot be exported becomes a comment naming the variable.
 */
function declarations(
  set: TokenSet,
  tokens: ExportToken[],
  mode: Mode,
  name: (t: ExportToken) => string,
  indent: string,
  literalOnly = (t: ExportToken) => t.category === 'breakpoint',
) {
  return tokens
    .map((t) => {
      const problem = set.problem(t, mode);
      if (problem) return `${indent}/* ${name(t)} left out: ${problem} */`;
      const target = set.target(t, mode);
      const literal = set.literal(t, mode);
      if (target && !literalOnly(t) && !literalOnly(target))
        return `${indent}${name(t)}: var(${name(target)});`;
      const { kind } = categorySpec(literal!.token.category);
      return `${indent}${name(t)}: ${cssForm(kind, literal!.value)};`;
    })
    .join('\n');
}

/** The blocks of a mode's `tokens`: under its selector, and its media query if any (on `:root`). */
function settingBlocks(
  set: TokenSet,
  tokens: ExportToken[],
  mode: Mode,
  setting: ModeSetting,
  name: (t: ExportToken) => string,
): string[] {
  if (tokens.length === 0) return [];
  const blocks = [`${setting.selector} {\n${declarations(set, tokens, mode, name, '  ')}\n}`];
  if (setting.media)
    blocks.push(
      `@media ${setting.media} {\n  :root {\n${declarations(set, tokens, mode, name, '    ')}\n  }\n}`,
    );
  return blocks;
}

/** The blocks of a mode beyond light and dark: the tokens with a value in it. */
const modeBlocks = (set: TokenSet, setting: ModeSetting, name: (t: ExportToken) => string) =>
  settingBlocks(
    set,
    set.tokens.filter((t) => t.modes?.[setting.name] !== undefined),
    setting.name,
    setting,
    name,
  );

/** The two dark blocks: chosen by the page, or followed from the system unless it chose light. */
function darkBlocks(
  set: TokenSet,
  tokens: ExportToken[],
  name: (t: ExportToken) => string,
  setting?: ModeSetting,
) {
  if (tokens.length === 0) return [];
  if (setting) return settingBlocks(set, tokens, 'dark', setting, name);
  return [
    `[data-theme="dark"] {\n${declarations(set, tokens, 'dark', name, '  ')}\n}`,
    `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {\n${declarations(set, tokens, 'dark', name, '    ')}\n  }\n}`,
  ];
}

/**
 * Every token as a custom property on `:root` (aliases as `var()` of their target); dark values
 * under `[data-theme="dark"]` (chosen by the page) and `prefers-color-scheme: dark` unless the
 * page chose light.
 */
export function toCss(set: TokenSet, modes: ModeSetting[] = []): string {
  const name = (t: ExportToken) => t.cssVariable;
  const root = `:root {\n${declarations(set, set.tokens, 'light', name, '  ')}\n}`;
  const dark = darkBlocks(
    set,
    withDark(set.tokens),
    name,
    modes.find((m) => m.name === 'theme:dark'),
  );
  const others = modes
    .filter((m) => m.name !== 'theme:dark')
    .flatMap((m) => modeBlocks(set, m, name));
  return `${[root, ...dark, ...others].join('\n\n')}\n`;
}

/**
 * Tailwind 4: an `@theme` block in Tailwind's namespaces (`--color-<key>`, `--spacing-<key>`, ...)
 * with the default values, and the dark values overriding those variables. Shadows differ:
 * Tailwind copies a theme shadow's value into its utility (to swap its colors), where a dark
 * override cannot reach it; so they are `@theme inline` references to their own custom property,
 * which `:root` and the dark blocks set.
 */
export function toTailwind4(set: TokenSet): string {
  const isShadow = (t: ExportToken) => t.category === 'shadow';
  const themeName = (t: ExportToken) => `--${categorySpec(t.category).tailwind4}-${t.tailwindKey}`;
  const name = (t: ExportToken) => (isShadow(t) ? t.cssVariable : themeName(t));
  const others = set.tokens.filter((t) => !isShadow(t));
  const shadows = set.tokens.filter(isShadow);
  const blocks = [`@theme {\n${declarations(set, others, 'light', name, '  ')}\n}`];
  if (shadows.length > 0)
    blocks.push(
      `@theme inline {\n${shadows.map((t) => `  ${themeName(t)}: var(${t.cssVariable});`).join('\n')}\n}`,
      `:root {\n${declarations(set, shadows, 'light', name, '  ')}\n}`,
    );
  const dark = withDark(set.tokens).filter((t) => t.category !== 'breakpoint');
  return `${[...blocks, ...darkBlocks(set, dark, name)].join('\n\n')}\n`;
}

export const tailwindModule = (set: TokenSet) =>
  `/** @type {import('tailwindcss').Config} */\nmodule.exports = ${JSON.stringify(toTailwindPreset(set), null, 2)};\n`;

export function exportTokens(
  tokens: ExportToken[],
  format: Format,
  modes: ModeSetting[] = [],
  defaults: Map<string, string> = new Map(),
): string {
  const set = new TokenSet(tokens);
  switch (format) {
    case 'css':
      return toCss(set, modes);
    case 'dtcg':
      return `${JSON.stringify(toDtcgDocument(set, defaults), null, 2)}\n`;
    case 'json':
      return `${JSON.stringify(toDtcg(set), null, 2)}\n`;
    case 'tailwind':
      return tailwindModule(set);
    case 'tailwind4':
      return toTailwind4(set);
  }
}

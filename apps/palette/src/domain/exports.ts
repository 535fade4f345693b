import { CATEGORIES, type Category } from './tokens.js';

export interface ExportToken {
  name: string;
  category: Category;
  value: { default: string; dark: string | null };
  cssVariable: string;
  tailwindKey: string;
  group: string | null;
  description: string | null;
}

export const FORMATS = ['css', 'json', 'tailwind', 'tailwind4'] as const;
export type Format = (typeof FORMATS)[number];

const declarations = (
  tokens: ExportToken[],
  pick: (t: ExportToken) => string | null,
  indent: string,
) =>
  tokens
    .flatMap((t) => {
      const value = pick(t);
      return value === null ? [] : [`${indent}${t.cssVariable}: ${value};`];
    })
    .join('\n');

/**
 * Every token as a custom property on `:root`; dark values under `[data-theme="dark"]` (chosen
 * by the page) and under `prefers-color-scheme: dark` unless the page chose light.
 */
export function toCss(tokens: ExportToken[]): string {
  const dark = tokens.filter((t) => t.value.dark !== null);
  const blocks = [`:root {\n${declarations(tokens, (t) => t.value.default, '  ')}\n}`];
  if (dark.length > 0) {
    blocks.push(`[data-theme="dark"] {\n${declarations(dark, (t) => t.value.dark, '  ')}\n}`);
    blocks.push(
      `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {\n${declarations(dark, (t) => t.value.dark, '    ')}\n  }\n}`,
    );
  }
  return `${blocks.join('\n\n')}\n`;
}

type DtcgGroup = { [key: string]: DtcgGroup | DtcgToken };
interface DtcgToken {
  $value: string;
  $type: string;
  $description?: string;
  $extensions?: Record<string, unknown>;
}

/** Extension namespace of the dark value in the W3C (DTCG) export. */
export const DTCG_EXTENSION = 'com.platform.palette';

/**
 * The W3C design tokens format: tokens nested by their group (dots make deeper groups), each with
 * `$value`, `$type`, `$description`, and the dark value and CSS variable under `$extensions`.
 */
export function toDtcg(tokens: ExportToken[]): DtcgGroup {
  const root: DtcgGroup = {};
  for (const t of tokens) {
    let node = root;
    for (const part of t.group ? t.group.split('.') : []) node = (node[part] ??= {}) as DtcgGroup;
    node[t.name] = {
      $value: t.value.default,
      $type: CATEGORIES[t.category].dtcg,
      ...(t.description ? { $description: t.description } : {}),
      $extensions: {
        [DTCG_EXTENSION]: {
          cssVariable: t.cssVariable,
          ...(t.value.dark === null ? {} : { dark: t.value.dark }),
        },
      },
    };
  }
  return root;
}

/**
 * A Tailwind (3) preset: `theme.extend.<section>.<tailwindKey>` pointing at the CSS variable, so
 * that the CSS export's dark values apply. Breakpoints take the value itself: media queries
 * cannot read custom properties.
 */
export function toTailwindPreset(tokens: ExportToken[]) {
  const extend: Record<string, Record<string, string>> = {};
  for (const t of tokens) {
    const section = CATEGORIES[t.category].tailwind;
    (extend[section] ??= {})[t.tailwindKey] =
      t.category === 'breakpoint' ? t.value.default : `var(${t.cssVariable})`;
  }
  return { theme: { extend } };
}

export const tailwindModule = (tokens: ExportToken[]) =>
  `/** @type {import('tailwindcss').Config} */\nmodule.exports = ${JSON.stringify(toTailwindPreset(tokens), null, 2)};\n`;

/**
 * Tailwind 4: an `@theme` block in Tailwind's namespaces (`--color-<key>`, `--spacing-<key>`, ...)
 * with the default values, and the dark values overriding those variables as the CSS export does.
 */
export function toTailwind4(tokens: ExportToken[]): string {
  const renamed = tokens.map((t) => ({
    ...t,
    cssVariable: `--${CATEGORIES[t.category].tailwind4}-${t.tailwindKey}`,
  }));
  const theme = `@theme {\n${declarations(renamed, (t) => t.value.default, '  ')}\n}`;
  const dark = renamed.filter((t) => t.value.dark !== null && t.category !== 'breakpoint');
  if (dark.length === 0) return `${theme}\n`;
  return `${theme}\n\n${toCss(dark).split('\n\n').slice(1).join('\n\n')}`;
}

export function exportTokens(tokens: ExportToken[], format: Format): string {
  switch (format) {
    case 'css':
      return toCss(tokens);
    case 'json':
      return `${JSON.stringify(toDtcg(tokens), null, 2)}\n`;
    case 'tailwind':
      return tailwindModule(tokens);
    case 'tailwind4':
      return toTailwind4(tokens);
  }
}

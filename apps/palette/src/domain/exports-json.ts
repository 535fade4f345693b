import type { ExportToken, TokenSet } from './exports.js';
import type { Mode } from './resolve.js';
import { categorySpec } from './tokens.js';
import { dtcgForm } from './values.js';

type DtcgGroup = { [key: string]: DtcgGroup | DtcgToken };
interface DtcgToken {
  $value: unknown;
  $type: string;
  $description?: string;
  $extensions?: Record<string, unknown>;
}

/** Extension namespace of the dark value in the W3C (DTCG) export. */
export const DTCG_EXTENSION = 'com.platform.palette';

/** A token's path in the export: its group, then its name. */
const pathOf = (t: ExportToken) => (t.group ? `${t.group}.${t.name}` : t.name);

/**
 * A token's DTCG `$type` and `$value` in a mode: an alias stays an alias (`{group.name}` of its
 * target, typed as what it ends at); a value takes the shape of its type (numbers as numbers,
 * font families and cubic-beziers as arrays, shadows as objects). Null when it cannot be exported.
 */
function dtcgValue(set: TokenSet, t: ExportToken, mode: Mode) {
  if (set.problem(t, mode)) return null;
  const literal = set.literal(t, mode)!;
  const form = dtcgForm(categorySpec(literal.token.category).kind, literal.value);
  const target = set.target(t, mode);
  return target ? { type: form.type, value: `{${pathOf(target)}}` } : form;
}

/**
 * The W3C design tokens format: tokens nested by their group (dots make deeper groups), each with
 * `$value`, `$type`, `$description`, and the dark value and CSS variable under `$extensions`.
 */
export function toDtcg(set: TokenSet): DtcgGroup {
  const root: DtcgGroup = {};
  for (const t of set.tokens) {
    const value = dtcgValue(set, t, 'light');
    if (!value) continue;
    const dark = t.value_dark === null ? null : dtcgValue(set, t, 'dark');
    let node = root;
    for (const part of t.group ? t.group.split('.') : []) node = (node[part] ??= {}) as DtcgGroup;
    node[t.name] = {
      $value: value.value,
      $type: value.type,
      ...(t.description ? { $description: t.description } : {}),
      $extensions: {
        [DTCG_EXTENSION]: {
          cssVariable: t.cssVariable,
          ...(dark === null ? {} : { dark: dark.value }),
        },
      },
    };
  }
  return root;
}

/**
 * A Tailwind (3) preset: `theme.extend.<section>.<tailwindKey>` pointing at the CSS variable, so
 * that the CSS export's dark values and aliases apply. Breakpoints take the value itself (aliases
 * followed): media queries cannot read custom properties.
 */
export function toTailwindPreset(set: TokenSet) {
  const extend: Record<string, Record<string, string>> = {};
  for (const t of set.tokens) {
    if (set.problem(t, 'light')) continue;
    const section = categorySpec(t.category).tailwind;
    (extend[section] ??= {})[t.tailwindKey] =
      t.category === 'breakpoint' ? set.literal(t, 'light')!.value : `var(${t.cssVariable})`;
  }
  return { theme: { extend } };
}

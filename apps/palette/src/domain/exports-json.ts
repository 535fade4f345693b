import type { ExportToken, TokenSet } from './exports.js';
import { formatHex, formatRgb, parse } from 'culori';
import { tokenPath } from '../schemas/tokens.js';
import type { Mode } from './resolve.js';
import { categorySpec } from './tokens.js';
import { dtcgForm } from './values.js';
import { place, table } from './dtcg/export.js';
import { EXTENSION } from './dtcg/plan.js';

type DtcgGroup = { [key: string]: DtcgGroup | DtcgToken };
interface DtcgToken {
  $value: unknown;
  $type: string;
  $description?: string;
  $extensions?: Record<string, unknown>;
}

/** A token's path in the export: an imported token's DTCG path, else its group, then its name. */
const pathOf = (t: ExportToken) => tokenPath(t);

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
  if (target) return { type: form.type, value: `{${pathOf(target)}}` };
  // A color imported in a 2025.10 color space: Style Dictionary 4 reads hex and rgb() only (its
  // color/css transform misreads color() and oklch()), so sRGB here; the dtcg format keeps it.
  if (form.type === 'color' && literal.token.source) {
    const color = parse(literal.value);
    if (color)
      return { type: 'color', value: (color.alpha ?? 1) < 1 ? formatRgb(color) : formatHex(color) };
  }
  return form;
}

/**
 * The W3C design tokens format: tokens nested by their group (dots make deeper groups), each with
 * `$value`, `$type`, `$description`, and the dark value and CSS variable under `$extensions`.
 */
export function toDtcg(set: TokenSet): DtcgGroup {
  const root = table() as DtcgGroup;
  for (const t of set.tokens) {
    const value = dtcgValue(set, t, 'light');
    if (!value) continue;
    const dark = t.value_dark === null ? null : dtcgValue(set, t, 'dark');
    place(root, pathOf(t), {
      $value: value.value,
      $type: value.type,
      ...(t.description ? { $description: t.description } : {}),
      $extensions: {
        [EXTENSION]: {
          cssVariable: t.cssVariable,
          ...(dark === null ? {} : { dark: dark.value }),
        },
      },
    });
  }
  return root;
}

/**
 * A Tailwind (3) preset: `theme.extend.<section>.<tailwindKey>` pointing at the CSS variable, so
 * that the CSS export's dark values and aliases apply. Breakpoints take the value itself (aliases
 * followed): media queries cannot read custom properties.
 */
export function toTailwindPreset(set: TokenSet) {
  const extend = table<Record<string, string>>();
  for (const t of set.tokens) {
    if (set.problem(t, 'light')) continue;
    const section = categorySpec(t.category).tailwind;
    (extend[section] ??= table<string>())[t.tailwindKey] =
      t.category === 'breakpoint' ? set.literal(t, 'light')!.value : `var(${t.cssVariable})`;
  }
  return { theme: { extend } };
}

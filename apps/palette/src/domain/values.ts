import { isCssColor, isLength, isNumber, isPlainLength, splitTopLevel, unsafeCss } from './css.js';

/** What a category's values are; each kind has its grammar, its CSS form and its DTCG form. */
export type ValueKind =
  | 'color'
  | 'length'
  | 'signed-length'
  | 'breakpoint'
  | 'shadow'
  | 'fraction'
  | 'integer'
  | 'duration'
  | 'font-family'
  | 'font-weight'
  | 'line-height'
  | 'cubic-bezier'
  | 'number'
  | 'stroke-style'
  | 'composite';

/** What a value of each kind looks like, as error messages say it. */
export const EXPECTED: Record<ValueKind, string> = {
  color: 'a CSS color',
  length: 'a length (a number and a unit, e.g. 16px or 1rem, or calc(), clamp(), min(), max())',
  'signed-length':
    'a length (a number and a unit, e.g. 16px, -1rem, or calc(), clamp(), min(), max())',
  breakpoint: 'a breakpoint (a number and px, rem or em, e.g. 768px)',
  shadow:
    'a shadow (one or more comma-separated "[inset] <x> <y> [blur] [spread] [color]", e.g. 0 1px 2px rgb(0 0 0 / 0.2))',
  fraction: 'an opacity (a number from 0 to 1, or a percentage)',
  integer: 'an integer (e.g. 10)',
  duration: 'a duration (a number and ms or s, e.g. 120ms)',
  'font-family': 'a font family list (e.g. "Inter", system-ui, sans-serif)',
  'font-weight': 'a font weight (1 to 1000, or a keyword such as bold or semi-bold)',
  'line-height': 'a line height (a number such as 1.5, or a length)',
  'cubic-bezier':
    'an easing (cubic-bezier(x1, y1, x2, y2) with x1 and x2 from 0 to 1, or linear, ease, ease-in, ease-out, ease-in-out)',
  number: 'a number (e.g. 1.5 or -2)',
  'stroke-style': 'a line style (solid, dashed, dotted, double, groove, ridge, outset or inset)',
  composite: 'a CSS value (its DTCG form comes from an import)',
};

/** DTCG font weight keywords (and the CSS ones) and their numbers. */
export const FONT_WEIGHTS: Record<string, number> = {
  thin: 100,
  hairline: 100,
  'extra-light': 200,
  'ultra-light': 200,
  light: 300,
  normal: 400,
  regular: 400,
  book: 400,
  medium: 500,
  'semi-bold': 600,
  'demi-bold': 600,
  bold: 700,
  'extra-bold': 800,
  'ultra-bold': 800,
  black: 900,
  heavy: 900,
  'extra-black': 950,
  'ultra-black': 950,
};

/** The CSS line styles (the DTCG strokeStyle keywords). */
export const STROKE_STYLES = [
  'solid',
  'dashed',
  'dotted',
  'double',
  'groove',
  'ridge',
  'outset',
  'inset',
];

const EASINGS: Record<string, [number, number, number, number]> = {
  linear: [0, 0, 1, 1],
  ease: [0.25, 0.1, 0.25, 1],
  'ease-in': [0.42, 0, 1, 1],
  'ease-out': [0, 0, 0.58, 1],
  'ease-in-out': [0.42, 0, 0.58, 1],
};

const GENERIC_FAMILIES = new Set([
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

/** `1.5` -> 1.5; a percentage as a fraction. */
const toNumber = (value: string) =>
  value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : Number(value);

/** The families of a font-family list, unquoted; null when it is not one. */
export function parseFontFamily(value: string): string[] | null {
  const families = splitTopLevel(value, ',').map((family) => {
    const quoted = /^(["'])([^"']+)\1$/.exec(family);
    if (quoted) return quoted[2].trim();
    // Unquoted names are words; CSS reads `Segoe UI` as one family.
    return /^[A-Za-z0-9_-]+( [A-Za-z0-9_-]+)*$/.test(family) ? family : null;
  });
  return families.every((f): f is string => f !== null && f !== '') ? families : null;
}

/** A family list as CSS: generic families bare, every other name quoted. */
export const fontFamilyCss = (families: string[]) =>
  families.map((f) => (GENERIC_FAMILIES.has(f.toLowerCase()) ? f : `"${f}"`)).join(', ');

/** A font weight as a number (keywords by the DTCG table), or null. */
export function parseFontWeight(value: string): number | null {
  if (/^\d+$/.test(value)) {
    const weight = Number(value);
    return weight >= 1 && weight <= 1000 ? weight : null;
  }
  const key = value.toLowerCase();
  return Object.hasOwn(FONT_WEIGHTS, key) ? FONT_WEIGHTS[key] : null;
}

/** An easing as its four control points, or null. */
export function parseCubicBezier(value: string): [number, number, number, number] | null {
  const keyword = Object.hasOwn(EASINGS, value.toLowerCase())
    ? EASINGS[value.toLowerCase()]
    : undefined;
  if (keyword) return keyword;
  const match = /^cubic-bezier\((.*)\)$/i.exec(value);
  if (!match) return null;
  const args = splitTopLevel(match[1], ',');
  if (args.length !== 4 || !args.every(isNumber)) return null;
  const [x1, y1, x2, y2] = args.map(Number);
  return x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1 ? [x1, y1, x2, y2] : null;
}

export interface ShadowLayer {
  color: string;
  offsetX: string;
  offsetY: string;
  blur: string;
  spread: string;
  inset?: true;
}

/** The layers of a box-shadow value (DTCG shadow objects), or null when it is not one. */
export function parseShadow(value: string): ShadowLayer[] | null {
  const layers = splitTopLevel(value, ',').map((layer): ShadowLayer | null => {
    const parts = splitTopLevel(layer, ' ');
    const inset = parts.filter((p) => p.toLowerCase() === 'inset');
    const rest = parts.filter((p) => p.toLowerCase() !== 'inset');
    const lengths = rest.filter(isLength);
    const colors = rest.filter((p) => !isLength(p));
    // The lengths come together, the color before or after them.
    const first = rest.findIndex(isLength);
    const together = rest.slice(first, first + lengths.length).every(isLength);
    if (inset.length > 1 || lengths.length < 2 || lengths.length > 4 || !together) return null;
    if (colors.length > 1 || (colors.length === 1 && !isCssColor(colors[0]))) return null;
    const [offsetX, offsetY, blur = '0px', spread = '0px'] = lengths;
    return {
      color: colors[0] ?? 'currentcolor',
      offsetX,
      offsetY,
      blur,
      spread,
      ...(inset.length === 1 ? { inset: true as const } : {}),
    };
  });
  return layers.every((l): l is ShadowLayer => l !== null) ? layers : null;
}

/** Whether a value (trimmed, not an alias) is of the kind. */
export function isOfKind(kind: ValueKind, value: string): boolean {
  if (value === '' || unsafeCss(value) !== null) return false;
  switch (kind) {
    case 'color':
      return isCssColor(value);
    case 'length':
      return isLength(value) && !value.startsWith('-');
    case 'signed-length':
      return isLength(value);
    case 'breakpoint':
      return isPlainLength(value, 'px|rem|em') && !value.startsWith('-');
    case 'shadow':
      return parseShadow(value) !== null;
    case 'fraction':
      return /^(\d+\.?\d*|\.\d+)%?$/.test(value) && toNumber(value) <= 1;
    case 'integer':
      return /^-?\d{1,10}$/.test(value);
    case 'duration':
      return /^(\d+\.?\d*|\.\d+)(ms|s)$/.test(value);
    case 'font-family':
      return parseFontFamily(value) !== null;
    case 'font-weight':
      return parseFontWeight(value) !== null;
    case 'line-height':
      return /^(\d+\.?\d*|\.\d+)$/.test(value) || (isLength(value) && !value.startsWith('-'));
    case 'cubic-bezier':
      return parseCubicBezier(value) !== null;
    case 'number':
      return isNumber(value);
    case 'stroke-style':
      return STROKE_STYLES.includes(value);
    case 'composite':
      return true;
  }
}

/** The value as it goes into a CSS declaration (keywords made what CSS reads). */
export function cssForm(kind: ValueKind, value: string): string {
  switch (kind) {
    case 'font-family':
      return fontFamilyCss(parseFontFamily(value) ?? []);
    case 'font-weight':
      return String(parseFontWeight(value));
    case 'fraction':
      return String(toNumber(value));
    default:
      return value;
  }
}

/** The DTCG `$type` and `$value` of a value of the kind (a valid one). */
export function dtcgForm(kind: ValueKind, value: string): { type: string; value: unknown } {
  switch (kind) {
    case 'color':
      return { type: 'color', value };
    case 'shadow': {
      const layers = parseShadow(value) ?? [];
      return { type: 'shadow', value: layers.length === 1 ? layers[0] : layers };
    }
    case 'fraction':
    case 'integer':
      return { type: 'number', value: toNumber(value) };
    case 'duration':
      return { type: 'duration', value };
    case 'font-family':
      return { type: 'fontFamily', value: parseFontFamily(value) };
    case 'font-weight':
      return { type: 'fontWeight', value: parseFontWeight(value) };
    case 'line-height':
      return /^[\d.]+$/.test(value)
        ? { type: 'number', value: Number(value) }
        : { type: 'dimension', value };
    case 'cubic-bezier':
      return { type: 'cubicBezier', value: parseCubicBezier(value) };
    case 'number':
      return { type: 'number', value: Number(value) };
    case 'stroke-style':
      return { type: 'strokeStyle', value };
    default:
      return { type: 'dimension', value };
  }
}

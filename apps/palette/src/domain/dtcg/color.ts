import { isObject } from './tree.js';

// DTCG 2025.10 color values (Color Module): { colorSpace, components, alpha?, hex? }.

type Range = [number, number] | null;

/** Every color space of the Color Module, with its components' ranges (null: unbounded). */
const SPACES: Record<string, { css: string; ranges: [Range, Range, Range] }> = {
  srgb: {
    css: 'color(srgb',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  'srgb-linear': {
    css: 'color(srgb-linear',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  hsl: {
    css: 'hsl(',
    ranges: [
      [0, 360],
      [0, 100],
      [0, 100],
    ],
  },
  hwb: {
    css: 'hwb(',
    ranges: [
      [0, 360],
      [0, 100],
      [0, 100],
    ],
  },
  lab: { css: 'lab(', ranges: [[0, 100], null, null] },
  lch: {
    css: 'lch(',
    ranges: [
      [0, 100],
      [0, Infinity],
      [0, 360],
    ],
  },
  oklab: { css: 'oklab(', ranges: [[0, 1], null, null] },
  oklch: {
    css: 'oklch(',
    ranges: [
      [0, 1],
      [0, Infinity],
      [0, 360],
    ],
  },
  'display-p3': {
    css: 'color(display-p3',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  'a98-rgb': {
    css: 'color(a98-rgb',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  'prophoto-rgb': {
    css: 'color(prophoto-rgb',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  rec2020: {
    css: 'color(rec2020',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  'xyz-d65': {
    css: 'color(xyz-d65',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
  'xyz-d50': {
    css: 'color(xyz-d50',
    ranges: [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
  },
};

export const COLOR_SPACES = Object.keys(SPACES);

/** The color space of a name (never a property of the table's prototype). */
const spaceOf = (name: unknown) =>
  typeof name === 'string' && Object.hasOwn(SPACES, name) ? SPACES[name] : undefined;

/** The problems of a color value (`at` is its JSON path); none when it is one. */
export function colorProblems(value: unknown, at: string): string[] {
  if (!isObject(value))
    return [`${at}: a color is an object { colorSpace, components, alpha?, hex? }`];
  const problems: string[] = [];
  const space = spaceOf(value.colorSpace);
  if (!space)
    problems.push(
      `${at}/colorSpace: ${JSON.stringify(value.colorSpace)} is not a color space (${COLOR_SPACES.join(', ')})`,
    );
  const { components } = value;
  if (!Array.isArray(components) || components.length !== 3)
    problems.push(`${at}/components: three numbers (or "none") are expected`);
  else
    components.forEach((c, i) => {
      if (c === 'none') return;
      const range = space?.ranges[i];
      if (typeof c !== 'number' || !Number.isFinite(c))
        problems.push(`${at}/components/${i}: a number or "none" is expected`);
      else if (range && (c < range[0] || c > range[1] || (range[1] === 360 && c === 360)))
        problems.push(
          `${at}/components/${i}: ${c} is outside ${range[0]}..${range[1]} in ${String(value.colorSpace)}`,
        );
    });
  if (
    value.alpha !== undefined &&
    (typeof value.alpha !== 'number' || value.alpha < 0 || value.alpha > 1)
  )
    problems.push(`${at}/alpha: a number from 0 to 1 is expected`);
  if (
    value.hex !== undefined &&
    (typeof value.hex !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value.hex))
  )
    problems.push(`${at}/hex: a 6-digit hex color (#rrggbb) is expected`);
  for (const key of Object.keys(value))
    if (!['colorSpace', 'components', 'alpha', 'hex'].includes(key))
      problems.push(`${at}/${key}: not a property of a color`);
  return problems;
}

/** An sRGB component as a byte, when it is one (to the precision an export writes). */
const byte = (c: number | 'none') =>
  c !== 'none' && Math.abs(c * 255 - Math.round(c * 255)) < 1e-3 ? Math.round(c * 255) : null;

/**
 * A (valid) color value as CSS: the function of its color space, alpha after a slash; an sRGB
 * color of whole bytes as hex (`#1d4ed8`), or rgb() with its alpha, as the palette writes colors.
 */
export function colorCss(value: Record<string, unknown>): string {
  const space = spaceOf(value.colorSpace)!;
  const components = value.components as Array<number | 'none'>;
  const bytes = value.colorSpace === 'srgb' ? components.map(byte) : [];
  if (bytes.length === 3 && bytes.every((b) => b !== null)) {
    if (value.alpha === undefined || value.alpha === 1)
      return `#${bytes.map((b) => b!.toString(16).padStart(2, '0')).join('')}`;
    return `rgb(${bytes.join(' ')} / ${String(value.alpha)})`;
  }
  const parts = components.map((c, i) => {
    if (c === 'none') return 'none';
    const percent = ['hsl', 'hwb'].includes(value.colorSpace as string) && i > 0;
    return `${+c.toPrecision(12)}${percent ? '%' : ''}`;
  });
  const alpha = value.alpha === undefined || value.alpha === 1 ? '' : ` / ${String(value.alpha)}`;
  const open = space.css.endsWith('(') ? space.css : `${space.css} `;
  return `${open}${parts.join(' ')}${alpha})`;
}

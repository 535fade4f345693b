import { clampRgb, converter, parse, wcagContrast, type Rgb } from 'culori';
import type { ValueKind } from './values.js';

interface CategorySpec {
  /** What its values are. */
  kind: ValueKind;
  /** The DTCG `$type` of its values (line heights with a unit are dimensions). */
  dtcg: string;
  /** The section of a Tailwind 3 theme. */
  tailwind: string;
  /** The namespace of a Tailwind 4 theme variable (`--<namespace>-<key>`). */
  tailwind4: string;
  /** Leading words a derived tailwindKey drops, beside the category's own name. */
  prefixes?: string[];
}

/** Token categories: their values, and where each goes in a Tailwind theme and in DTCG. */
export const CATEGORIES = {
  color: { kind: 'color', dtcg: 'color', tailwind: 'colors', tailwind4: 'color' },
  spacing: { kind: 'signed-length', dtcg: 'dimension', tailwind: 'spacing', tailwind4: 'spacing' },
  typography: { kind: 'length', dtcg: 'dimension', tailwind: 'fontSize', tailwind4: 'text' },
  radius: { kind: 'length', dtcg: 'dimension', tailwind: 'borderRadius', tailwind4: 'radius' },
  shadow: { kind: 'shadow', dtcg: 'shadow', tailwind: 'boxShadow', tailwind4: 'shadow' },
  opacity: { kind: 'fraction', dtcg: 'number', tailwind: 'opacity', tailwind4: 'opacity' },
  'z-index': { kind: 'integer', dtcg: 'number', tailwind: 'zIndex', tailwind4: 'z-index' },
  motion: {
    kind: 'duration',
    dtcg: 'duration',
    tailwind: 'transitionDuration',
    tailwind4: 'transition-duration',
    prefixes: ['duration'],
  },
  breakpoint: {
    kind: 'breakpoint',
    dtcg: 'dimension',
    tailwind: 'screens',
    tailwind4: 'breakpoint',
  },
  border: { kind: 'length', dtcg: 'dimension', tailwind: 'borderWidth', tailwind4: 'border-width' },
  'font-family': {
    kind: 'font-family',
    dtcg: 'fontFamily',
    tailwind: 'fontFamily',
    tailwind4: 'font',
    prefixes: ['font-stack', 'font'],
  },
  'font-weight': {
    kind: 'font-weight',
    dtcg: 'fontWeight',
    tailwind: 'fontWeight',
    tailwind4: 'font-weight',
    prefixes: ['weight'],
  },
  'line-height': {
    kind: 'line-height',
    dtcg: 'number',
    tailwind: 'lineHeight',
    tailwind4: 'leading',
    prefixes: ['leading'],
  },
  'letter-spacing': {
    kind: 'signed-length',
    dtcg: 'dimension',
    tailwind: 'letterSpacing',
    tailwind4: 'tracking',
    prefixes: ['tracking'],
  },
  easing: {
    kind: 'cubic-bezier',
    dtcg: 'cubicBezier',
    tailwind: 'transitionTimingFunction',
    tailwind4: 'ease',
    prefixes: ['ease'],
  },
  // The DTCG types no category above stands for (issue 37): what an import files a token of that
  // $type under when nothing else says (categories come from $type, never from a name).
  dimension: {
    kind: 'signed-length',
    dtcg: 'dimension',
    tailwind: 'spacing',
    tailwind4: 'spacing',
  },
  number: { kind: 'number', dtcg: 'number', tailwind: 'number', tailwind4: 'number' },
  'stroke-style': {
    kind: 'stroke-style',
    dtcg: 'strokeStyle',
    tailwind: 'strokeStyle',
    tailwind4: 'stroke-style',
  },
  'border-composite': {
    kind: 'composite',
    dtcg: 'border',
    tailwind: 'border',
    tailwind4: 'border',
  },
  transition: {
    kind: 'composite',
    dtcg: 'transition',
    tailwind: 'transition',
    tailwind4: 'transition',
  },
  gradient: {
    kind: 'composite',
    dtcg: 'gradient',
    tailwind: 'backgroundImage',
    tailwind4: 'gradient',
  },
  'text-style': {
    kind: 'composite',
    dtcg: 'typography',
    tailwind: 'textStyle',
    tailwind4: 'text-style',
  },
} as const satisfies Record<string, CategorySpec>;

export type Category = keyof typeof CATEGORIES;
export const CATEGORY_NAMES = Object.keys(CATEGORIES) as Category[];

export const categorySpec = (category: Category): CategorySpec => CATEGORIES[category];

/** The category a token of a DTCG `$type` is filed under when nothing else says. */
export const DEFAULT_CATEGORY: Record<string, Category> = {
  color: 'color',
  dimension: 'dimension',
  fontFamily: 'font-family',
  fontWeight: 'font-weight',
  duration: 'motion',
  cubicBezier: 'easing',
  number: 'number',
  strokeStyle: 'stroke-style',
  border: 'border-composite',
  transition: 'transition',
  shadow: 'shadow',
  gradient: 'gradient',
  typography: 'text-style',
};

/** Whether a category holds values of a DTCG type (line heights: numbers or dimensions). */
export const holdsType = (category: Category, type: string) =>
  categorySpec(category).dtcg === type ||
  (category === 'line-height' && (type === 'number' || type === 'dimension'));

/**
 * Kebab case that keeps the words: a lower-case letter or digit followed by a capital starts a
 * word (`bgColor-default` -> `bg-color-default`, `HTMLTitle` -> `html-title`), every run of other
 * characters is one `-`, and the result is lower case. Style Dictionary's name/kebab agrees.
 */
export const kebab = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Before the kebab case above, names were lower-cased whole (`bgColor` -> `bgcolor`). */
export const legacyKebab = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** `--` and the kebab-cased name: `color-primary` -> `--color-primary`. */
export const deriveCssVariable = (name: string, words = kebab) => `--${words(name)}`;

/**
 * The kebab-cased name without a leading category word, since the theme section already says it:
 * `color-primary` in `color` -> `primary`; `fontWeight-bold` in `font-weight` -> `bold`.
 */
export function deriveTailwindKey(name: string, category: Category, words = kebab): string {
  const key = words(name);
  const spec = categorySpec(category);
  for (const word of [category, ...(spec.prefixes ?? [])]) {
    const prefix = `${word}-`;
    if (key.startsWith(prefix) && key.length > prefix.length) return key.slice(prefix.length);
  }
  return key;
}

export interface ContrastResult {
  ratio: number;
  aa: { normal: boolean; large: boolean };
  aaa: { normal: boolean; large: boolean };
}

const toRgb = converter('rgb');

/** `color` drawn over the opaque `backdrop` (in sRGB, as browsers composite): an opaque color. */
export function composite(color: string | Rgb, backdrop: string | Rgb): Rgb {
  const top = typeof color === 'string' ? parse(color) : color;
  const bottom = typeof backdrop === 'string' ? parse(backdrop) : backdrop;
  if (!top || !bottom) throw new Error(`not a color: ${String(top ? backdrop : color)}`);
  const fg = clampRgb(toRgb(top));
  const bg = clampRgb(toRgb(bottom));
  const alpha = fg.alpha ?? 1;
  const mix = (a: number, b: number) => a * alpha + b * (1 - alpha);
  return { mode: 'rgb', r: mix(fg.r, bg.r), g: mix(fg.g, bg.g), b: mix(fg.b, bg.b) };
}

/**
 * WCAG 2 contrast ratio of two colors, rounded to two decimals, and the thresholds it meets. A
 * translucent background is first drawn over the backdrop, then a translucent foreground over
 * that: the ratio is of the colors a reader sees.
 */
export function contrast(foreground: string, background: string, backdrop: string): ContrastResult {
  const bg = composite(background, composite(backdrop, '#ffffff'));
  const ratio = wcagContrast(composite(foreground, bg), bg);
  return {
    ratio: Math.round(ratio * 100) / 100,
    aa: { normal: ratio >= 4.5, large: ratio >= 3 },
    aaa: { normal: ratio >= 7, large: ratio >= 4.5 },
  };
}

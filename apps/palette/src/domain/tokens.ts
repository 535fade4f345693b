import { parse, wcagContrast } from 'culori';

/** Token categories, and where each goes in a Tailwind theme and in the W3C format. */
export const CATEGORIES = {
  color: { tailwind: 'colors', tailwind4: 'color', dtcg: 'color' },
  spacing: { tailwind: 'spacing', tailwind4: 'spacing', dtcg: 'dimension' },
  typography: { tailwind: 'fontSize', tailwind4: 'text', dtcg: 'dimension' },
  radius: { tailwind: 'borderRadius', tailwind4: 'radius', dtcg: 'dimension' },
  shadow: { tailwind: 'boxShadow', tailwind4: 'shadow', dtcg: 'shadow' },
  opacity: { tailwind: 'opacity', tailwind4: 'opacity', dtcg: 'number' },
  'z-index': { tailwind: 'zIndex', tailwind4: 'z-index', dtcg: 'number' },
  motion: { tailwind: 'transitionDuration', tailwind4: 'duration', dtcg: 'duration' },
  breakpoint: { tailwind: 'screens', tailwind4: 'breakpoint', dtcg: 'dimension' },
  border: { tailwind: 'borderWidth', tailwind4: 'border-width', dtcg: 'dimension' },
} as const;

export type Category = keyof typeof CATEGORIES;
export const CATEGORY_NAMES = Object.keys(CATEGORIES) as Category[];

/** `Brand Primary.500` -> `brand-primary-500`: lower case, runs of other characters become `-`. */
export const kebab = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** `--` and the kebab-cased name: `color-primary` -> `--color-primary`. */
export const deriveCssVariable = (name: string) => `--${kebab(name)}`;

/**
 * The kebab-cased name without a leading category word, since the theme section already says it:
 * `color-primary` in `color` -> `primary`; `radius-lg` in `radius` -> `lg`; `brand` -> `brand`.
 */
export function deriveTailwindKey(name: string, category: Category): string {
  const key = kebab(name);
  const prefix = `${kebab(category)}-`;
  return key.startsWith(prefix) && key.length > prefix.length ? key.slice(prefix.length) : key;
}

/** Whether a CSS color parser accepts the value (hex, named, rgb(), hsl(), oklch(), ...). */
export const isCssColor = (value: string) => parse(value.trim()) !== undefined;

export interface ContrastResult {
  ratio: number;
  aa: { normal: boolean; large: boolean };
  aaa: { normal: boolean; large: boolean };
}

/** WCAG 2 contrast ratio of two colors, rounded to two decimals, and the thresholds it meets. */
export function contrast(foreground: string, background: string): ContrastResult {
  const ratio = wcagContrast(foreground, background);
  return {
    ratio: Math.round(ratio * 100) / 100,
    aa: { normal: ratio >= 4.5, large: ratio >= 3 },
    aaa: { normal: ratio >= 7, large: ratio >= 4.5 },
  };
}

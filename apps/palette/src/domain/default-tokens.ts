import { exportTokens, type ExportToken } from './exports.js';
import type { Category } from './tokens.js';

/**
 * The platform's own design tokens: what every web UI is styled with, through the same CSS
 * export a user's token set gets (`defaultTokensCss`). Light values, then dark ones; text and
 * background pairs meet WCAG AA in both modes (tested with the contrast checker).
 */
const TOKENS: [name: string, category: Category, light: string, dark?: string][] = [
  ['bg', 'color', '#ffffff', '#0f1218'],
  ['surface', 'color', '#f5f6f8', '#171b23'],
  ['surface-raised', 'color', '#ffffff', '#1f2430'],
  ['border', 'color', '#c9cfd9', '#3a4252'],
  ['text', 'color', '#111827', '#e7eaf0'],
  ['text-muted', 'color', '#4a5565', '#a9b1c0'],
  ['accent', 'color', '#1f4fc9', '#86a8ff'],
  ['accent-text', 'color', '#ffffff', '#0b1020'],
  ['accent-soft', 'color', '#e6edff', '#1d2a4d'],
  ['danger', 'color', '#b42318', '#ff9b91'],
  ['danger-soft', 'color', '#fdecea', '#3a1714'],
  ['success', 'color', '#05603a', '#6ce9a6'],
  ['success-soft', 'color', '#e3f7ec', '#0f2e20'],
  ['warning', 'color', '#93370d', '#fdb022'],
  ['warning-soft', 'color', '#fff4e0', '#33230a'],
  ['focus', 'color', '#1f4fc9', '#86a8ff'],
  ['overlay', 'color', 'rgb(16 24 40 / 0.45)', 'rgb(0 0 0 / 0.6)'],
  ['chart-1', 'color', '#1f4fc9', '#86a8ff'],
  ['chart-2', 'color', '#0e9384', '#5fe9d0'],
  ['chart-3', 'color', '#c4320a', '#ff9c66'],
  ['chart-4', 'color', '#7839ee', '#bd9cff'],
  ['chart-5', 'color', '#b54708', '#fdb022'],
  ['chart-6', 'color', '#475467', '#98a2b3'],
  ['space-1', 'spacing', '4px'],
  ['space-2', 'spacing', '8px'],
  ['space-3', 'spacing', '12px'],
  ['space-4', 'spacing', '16px'],
  ['space-6', 'spacing', '24px'],
  ['space-8', 'spacing', '32px'],
  ['text-sm', 'typography', '13px'],
  ['text-md', 'typography', '15px'],
  ['text-lg', 'typography', '18px'],
  ['text-xl', 'typography', '24px'],
  ['radius-sm', 'radius', '4px'],
  ['radius-md', 'radius', '8px'],
  ['border-width', 'border', '1px'],
  ['shadow-raised', 'shadow', '0 1px 3px rgb(16 24 40 / 0.12)', '0 1px 3px rgb(0 0 0 / 0.5)'],
  ['duration-fast', 'motion', '120ms'],
];

/** The default set as the export reads tokens (`--<name>` variables). */
export const DEFAULT_TOKENS: ExportToken[] = TOKENS.map(([name, category, light, dark], i) => ({
  id: `default-${i}`,
  name,
  category,
  cssVariable: `--${name}`,
  tailwindKey: name,
  group: null,
  description: null,
  value_default: light,
  value_dark: dark ?? null,
  value_default_ref: null,
  value_dark_ref: null,
}));

/** The stylesheet of the platform's web UIs: the CSS export of the default set. */
export const defaultTokensCss = () => exportTokens(DEFAULT_TOKENS, 'css');

import postcss from 'postcss';
import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';
import { styleDictionaryCss } from './style-dictionary';

/** One token of every category (and an alias), each with the utility that must use it. */
const TOKENS = [
  { name: 'color-primary', category: 'color', value: '#0055ff', dark: '#99bbff', group: 'brand' },
  { name: 'color-accent', category: 'color', value: '{brand.color-primary}' },
  { name: 'space-4', category: 'spacing', value: '1rem' },
  { name: 'typography-body', category: 'typography', value: 'clamp(1rem, 2vw, 1.25rem)' },
  { name: 'radius-lg', category: 'radius', value: '12px' },
  {
    name: 'shadow-card',
    category: 'shadow',
    value: '0 1px 2px rgb(0 0 0 / 0.2)',
    dark: '0 1px 3px 1px rgb(0 0 0 / 0.6), inset 0 0 0 1px #ffffff1a',
  },
  { name: 'opacity-muted', category: 'opacity', value: '0.5' },
  { name: 'z-index-modal', category: 'z-index', value: '50' },
  { name: 'motion-fast', category: 'motion', value: '120ms' },
  { name: 'breakpoint-tablet', category: 'breakpoint', value: '48rem' },
  { name: 'border-thick', category: 'border', value: '3px' },
  { name: 'fontFamily-sans', category: 'font-family', value: '"Inter", Segoe UI, sans-serif' },
  { name: 'fontWeight-semibold', category: 'font-weight', value: '600' },
  { name: 'fontWeight-heavy', category: 'font-weight', value: 'extra-bold' },
  { name: 'lineHeight-tight', category: 'line-height', value: '1.25' },
  { name: 'letterSpacing-wide', category: 'letter-spacing', value: '0.05em' },
  { name: 'easing-snappy', category: 'easing', value: 'cubic-bezier(0.2, 0, 0, 1)' },
];

/** Utility -> the declaration it must generate (Tailwind 3, then 4). */
const UTILITIES: Array<[string, RegExp, RegExp]> = [
  [
    'bg-primary',
    /background-color: var\(--color-primary\)/,
    /background-color: var\(--color-primary\)/,
  ],
  [
    'bg-accent',
    /background-color: var\(--color-accent\)/,
    /background-color: var\(--color-accent\)/,
  ],
  ['p-space-4', /padding: var\(--space-4\)/, /padding: var\(--spacing-space-4\)/],
  ['text-body', /font-size: var\(--typography-body\)/, /font-size: var\(--text-body\)/],
  ['rounded-lg', /border-radius: var\(--radius-lg\)/, /border-radius: var\(--radius-lg\)/],
  ['shadow-card', /--tw-shadow: var\(--shadow-card\)/, /--tw-shadow: var\(--shadow-card\)/],
  ['opacity-muted', /opacity: var\(--opacity-muted\)/, /opacity: var\(--opacity-muted\)/],
  ['z-modal', /z-index: var\(--z-index-modal\)/, /z-index: var\(--z-index-modal\)/],
  [
    'duration-fast',
    /transition-duration: var\(--motion-fast\)/,
    /transition-duration: var\(--transition-duration-fast\)/,
  ],
  ['tablet:flex', /@media \(min-width: 48rem\)/, /@media \(width >= 48rem\)/],
  [
    'border-thick',
    /border-width: var\(--border-thick\)/,
    /border-width: var\(--border-width-thick\)/,
  ],
  ['font-sans', /font-family: var\(--font-family-sans\)/, /font-family: var\(--font-sans\)/],
  [
    'font-semibold',
    /font-weight: var\(--font-weight-semibold\)/,
    /font-weight: var\(--font-weight-semibold\)/,
  ],
  [
    'leading-tight',
    /line-height: var\(--line-height-tight\)/,
    /line-height: var\(--leading-tight\)/,
  ],
  [
    'tracking-wide',
    /letter-spacing: var\(--letter-spacing-wide\)/,
    /letter-spacing: var\(--tracking-wide\)/,
  ],
  [
    'ease-snappy',
    /transition-timing-function: var\(--easing-snappy\)/,
    /transition-timing-function: var\(--ease-snappy\)/,
  ],
];

const svc = useService(paletteUnderTest, { scope: 'all' });
beforeAll(async () => {
  for (const token of TOKENS) await svc.create('/tokens', token);
});

const exported = async (format: string) =>
  (await svc.get(`/export?format=${format}`)).body.data.output as string;

/** The rule of `selector` in compiled CSS, as text (or '' when there is none). */
function ruleOf(css: string, selector: string): string {
  let found = '';
  postcss.parse(css).walkRules((rule) => {
    if (rule.selector === selector) found += rule.toString();
  });
  return found;
}

const selectorOf = (utility: string) =>
  utility.includes(':') ? `.${utility.replace(':', '\\:')}` : `.${utility}`;

describe('every category reaches its utility', () => {
  it.each(UTILITIES)('Tailwind 3 preset: %s', async (utility, tw3) => {
    const source = await exported('tailwind');
    const preset = { exports: {} as object };
    new Function('module', source)(preset);
    const { default: tailwind } = await import('tailwindcss');
    const result = await postcss([
      tailwind({
        content: [{ raw: utility }],
        presets: [preset.exports],
        corePlugins: { preflight: false },
      }),
    ]).process('@tailwind utilities;', { from: undefined });
    const css = utility.includes(':') ? result.css : ruleOf(result.css, selectorOf(utility));
    expect(css).toMatch(tw3);
  });

  it.each(UTILITIES)('Tailwind 4 @theme: %s', async (utility, _tw3, tw4) => {
    const { compile } = await import('tailwindcss4');
    const compiler = await compile(`${await exported('tailwind4')}\n@tailwind utilities;`);
    const built = compiler.build([utility]);
    const css = utility.includes(':') ? built : ruleOf(built, selectorOf(utility));
    expect(css).toMatch(tw4);
  });

  it('Tailwind 4: the dark shadow overrides what shadow-card uses', async () => {
    const css = await exported('tailwind4');
    const { compile } = await import('tailwindcss4');
    const built = (await compile(`${css}\n@tailwind utilities;`)).build(['shadow-card']);
    expect(ruleOf(built, ':root')).toContain('--shadow-card: 0 1px 2px rgb(0 0 0 / 0.2)');
    expect(ruleOf(built, '[data-theme="dark"]')).toContain(
      '--shadow-card: 0 1px 3px 1px rgb(0 0 0 / 0.6), inset 0 0 0 1px #ffffff1a',
    );
  });
});

describe('DTCG types and value shapes', () => {
  it('gives each category its type, numbers as numbers, composites as objects', async () => {
    const tokens = JSON.parse(await exported('json'));
    const typed = (name: string) => {
      const { $type, $value } = tokens[name] ?? tokens.brand[name];
      return { $type, $value };
    };
    expect(typed('color-accent')).toEqual({ $type: 'color', $value: '{brand.color-primary}' });
    expect(typed('space-4')).toEqual({ $type: 'dimension', $value: '1rem' });
    expect(typed('shadow-card')).toEqual({
      $type: 'shadow',
      $value: {
        color: 'rgb(0 0 0 / 0.2)',
        offsetX: '0',
        offsetY: '1px',
        blur: '2px',
        spread: '0px',
      },
    });
    expect(tokens['shadow-card'].$extensions['com.platform.palette'].dark[1]).toEqual({
      color: '#ffffff1a',
      offsetX: '0',
      offsetY: '0',
      blur: '0',
      spread: '1px',
      inset: true,
    });
    expect(typed('opacity-muted')).toEqual({ $type: 'number', $value: 0.5 });
    expect(typed('z-index-modal')).toEqual({ $type: 'number', $value: 50 });
    expect(typed('motion-fast')).toEqual({ $type: 'duration', $value: '120ms' });
    expect(typed('fontFamily-sans')).toEqual({
      $type: 'fontFamily',
      $value: ['Inter', 'Segoe UI', 'sans-serif'],
    });
    expect(typed('fontWeight-semibold')).toEqual({ $type: 'fontWeight', $value: 600 });
    expect(typed('fontWeight-heavy')).toEqual({ $type: 'fontWeight', $value: 800 });
    expect(typed('lineHeight-tight')).toEqual({ $type: 'number', $value: 1.25 });
    expect(typed('easing-snappy')).toEqual({ $type: 'cubicBezier', $value: [0.2, 0, 0, 1] });
  });

  it('Style Dictionary builds CSS from it with every value intact (no 600rem)', async () => {
    const built: Record<string, string> = {};
    postcss.parse(await styleDictionaryCss(JSON.parse(await exported('json')))).walkDecls((d) => {
      built[d.prop] = d.value;
    });
    expect(built).toMatchObject({
      '--brand-color-primary': '#0055ff',
      '--color-accent': '#0055ff',
      '--space-4': '1rem',
      '--typography-body': 'clamp(1rem, 2vw, 1.25rem)',
      '--shadow-card': '0 1px 2px 0px rgb(0 0 0 / 0.2)',
      '--opacity-muted': '0.5',
      '--z-index-modal': '50',
      '--motion-fast': '120ms',
      '--font-family-sans': "Inter, 'Segoe UI', sans-serif",
      '--font-weight-semibold': '600',
      '--font-weight-heavy': '800',
      '--line-height-tight': '1.25',
      '--letter-spacing-wide': '0.05em',
      '--easing-snappy': 'cubic-bezier(0.2, 0, 0, 1)',
    });
    expect(Object.keys(built)).toHaveLength(TOKENS.length);
    expect(Object.values(built).join(' ')).not.toMatch(/\d(rem|px)rem|undefined|object/);
  });
});

import postcss from 'postcss';
import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';
import { styleDictionaryCss } from './style-dictionary';

const svc = useService(paletteUnderTest, { scope: 'all' });
beforeAll(async () => {
  for (const token of [
    { name: 'color-primary', category: 'color', value: '#0055ff', dark: '#99bbff', group: 'brand' },
    {
      name: 'color-surface',
      category: 'color',
      value: 'white',
      dark: 'rgb(17 17 17)',
      group: 'brand.surface',
    },
    { name: 'space-4', category: 'spacing', value: '1rem', group: 'layout' },
    { name: 'radius-lg', category: 'radius', value: '12px', description: 'Cards' },
    { name: 'shadow-card', category: 'shadow', value: '0 1px 2px rgb(0 0 0 / 0.2)' },
    { name: 'breakpoint-md', category: 'breakpoint', value: '768px' },
    { name: 'motion-fast', category: 'motion', value: '120ms' },
  ])
    await svc.create('/tokens', token);
});

const exported = async (format: string) => {
  const { status, body } = await svc.get(`/export?format=${format}`);
  expect(status).toBe(200);
  expect(body.data.format).toBe(format);
  return body.data.output as string;
};

/** Declarations of the rules matching `selector` (inside at-rules too), as name -> value. */
function declarations(css: string, selector: string, inMedia?: string) {
  const found: Record<string, string> = {};
  postcss.parse(css).walkRules((rule) => {
    const media =
      rule.parent?.type === 'atrule' ? (rule.parent as postcss.AtRule).params : undefined;
    if (rule.selector !== selector || media !== inMedia) return;
    rule.walkDecls((decl) => {
      found[decl.prop] = decl.value;
    });
  });
  return found;
}

describe('GET /export', () => {
  it('css: :root with every default, dark values by attribute and by system setting', async () => {
    const css = await exported('css');
    expect(declarations(css, ':root')).toEqual({
      '--breakpoint-md': '768px',
      '--color-primary': '#0055ff',
      '--color-surface': 'white',
      '--motion-fast': '120ms',
      '--radius-lg': '12px',
      '--shadow-card': '0 1px 2px rgb(0 0 0 / 0.2)',
      '--space-4': '1rem',
    });
    const dark = { '--color-primary': '#99bbff', '--color-surface': 'rgb(17 17 17)' };
    expect(declarations(css, '[data-theme="dark"]')).toEqual(dark);
    expect(
      declarations(css, ':root:not([data-theme="light"])', '(prefers-color-scheme: dark)'),
    ).toEqual(dark);
  });

  it('json: the W3C format, which Style Dictionary builds into the same CSS variables', async () => {
    const tokens = JSON.parse(await exported('json'));
    expect(tokens.brand['color-primary']).toEqual({
      $value: '#0055ff',
      $type: 'color',
      $extensions: { 'com.platform.palette': { cssVariable: '--color-primary', dark: '#99bbff' } },
    });
    expect(tokens.brand.surface['color-surface'].$value).toBe('white');
    expect(tokens['radius-lg']).toMatchObject({ $type: 'dimension', $description: 'Cards' });

    const built = declarations(await styleDictionaryCss(tokens), ':root');
    expect(built['--brand-color-primary']).toBe('#0055ff');
    expect(built['--brand-surface-color-surface']).toBe('#ffffff');
    expect(built['--layout-space-4']).toBe('1rem');
    expect(built['--radius-lg']).toBe('12px');
    expect(Object.keys(built)).toHaveLength(7);
  });

  it('tailwind: a preset that Tailwind 3 resolves, pointing at the CSS variables', async () => {
    const source = await exported('tailwind');
    const preset = { exports: {} as unknown };
    new Function('module', source)(preset);
    const { default: resolveConfig } = await import('tailwindcss/resolveConfig.js');
    const theme = resolveConfig({ content: ['x.html'], presets: [preset.exports as object] })
      .theme as unknown as Record<string, Record<string, unknown>>;
    expect(theme.colors.primary).toBe('var(--color-primary)');
    expect(theme.colors.surface).toBe('var(--color-surface)');
    expect(theme.colors.red).toBeDefined(); // extended, not replaced
    expect(theme.spacing['space-4']).toBe('var(--space-4)');
    expect(theme.borderRadius.lg).toBe('var(--radius-lg)');
    expect(theme.boxShadow.card).toBe('var(--shadow-card)');
    expect(theme.screens.md).toBe('768px');
    expect(theme.transitionDuration.fast).toBe('var(--motion-fast)');
  });

  it('tailwind4: an @theme block that Tailwind 4 compiles into utilities', async () => {
    const css = await exported('tailwind4');
    const { compile } = await import('tailwindcss4');
    const compiler = await compile(`${css}\n@tailwind utilities;`);
    const output = compiler.build([
      'bg-primary',
      'text-surface',
      'rounded-lg',
      'p-space-4',
      'shadow-card',
    ]);
    expect(output).toMatch(/\.bg-primary\s*{\s*background-color: var\(--color-primary\)/);
    expect(output).toMatch(/\.rounded-lg\s*{\s*border-radius: var\(--radius-lg\)/);
    expect(output).toMatch(/\.p-space-4\s*{\s*padding: var\(--spacing-space-4\)/);
    expect(output).toContain('--color-primary: #0055ff');
    expect(declarations(css, '[data-theme="dark"]')['--color-primary']).toBe('#99bbff');
  });

  it('rejects an unknown format', async () => {
    const { status, body } = await svc.get('/export?format=scss');
    expect(status).toBe(400);
    expect(body.error.message).toBe('format must be one of: css, json, dtcg, tailwind, tailwind4');
  });
});

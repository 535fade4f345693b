import postcss from 'postcss';
import { useService } from '@platform/testing';
import type { PaletteDb } from '../src/database';
import { insertToken } from '../src/repositories/tokens';
import { paletteUnderTest } from './helpers';

const svc = useService(paletteUnderTest);

const token = (category: string, value: string) => ({ name: 'x', category, value });

describe('values are checked against their category', () => {
  it.each([
    ['spacing', '1rem; } body { display: none', 'value is not a length'],
    ['spacing', '1rem }', 'value is not a length'],
    ['spacing', 'calc(1rem + var(--gap)); color: red', 'value is not a length'],
    ['color', 'red; } body { display: none', 'value is not a CSS color'],
    ['color', 'var(--x) } body {', 'value is not a CSS color'],
    ['color', 'rgb(0 0 0 / 0.5)</style><script>', 'value is not a CSS color'],
    ['shadow', '0 1px 2px red; } *', 'value is not a shadow'],
    ['font-family', 'Inter; } body { display: none', 'value is not a font family list'],
    ['font-family', '"Inter\\" } x {"', 'value is not a font family list'],
    ['typography', 'Inter, sans-serif', 'value is not a length'],
    ['radius', '-4px', 'value is not a length'],
    ['opacity', '1.5', 'value is not an opacity'],
    ['z-index', '10px', 'value is not an integer'],
    ['motion', 'fast', 'value is not a duration'],
    ['breakpoint', 'calc(40rem + 1px)', 'value is not a breakpoint'],
    ['font-weight', '1200', 'value is not a font weight'],
    ['easing', 'cubic-bezier(2, 0, 0, 1)', 'value is not an easing'],
    ['easing', 'steps(4)', 'value is not an easing'],
    ['line-height', 'tall', 'value is not a line height'],
  ])('%s refuses %j', async (category, value, message) => {
    const { status, body } = await svc.post('/tokens', token(category, value));
    expect(status).toBe(400);
    expect(body.error.message).toMatch(new RegExp(`^${message}`));
    expect(body.error.message).toContain(value);
    expect((await svc.get('/tokens')).body.data).toEqual([]);
  });

  it('refuses a bad dark value, and a category change the values do not fit', async () => {
    const dark = await svc.post('/tokens', { ...token('spacing', '1rem'), dark: '2rem }' });
    expect(dark.body.error.message).toMatch(/^dark is not a length/);
    await svc.create('/tokens', token('spacing', '4px'));
    const moved = await svc.put('/tokens/x', { category: 'z-index' });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toBe('value is not an integer (e.g. 10): 4px');
  });

  it.each([
    ['color', ['#0af', 'rebeccapurple', 'currentColor', 'transparent', 'oklch(70% 0.1 250 / 50%)']],
    ['color', ['light-dark(#fff, #111)', 'color-mix(in oklch, red 40%, blue)', 'var(--brand)']],
    [
      'color',
      ['var(--brand, #00f)', 'oklch(from var(--brand) l c h / 0.5)', 'color(display-p3 1 0 0)'],
    ],
    ['spacing', ['0', '4px', '-0.5rem', 'calc(1rem + 2px)', 'clamp(1rem, 2.5vw, 2rem)']],
    ['shadow', ['0 1px 2px #0003', 'inset 0 0 0 1px red, 0 4px 8px -2px rgb(0 0 0 / 0.1)']],
    ['opacity', ['0', '0.5', '1', '40%']],
    ['z-index', ['0', '10', '-1', '9999']],
    ['motion', ['120ms', '0.3s']],
    ['breakpoint', ['640px', '48rem']],
    ['font-family', ['"Inter", Segoe UI, -apple-system, sans-serif', "'Font Awesome 6 Free'"]],
    ['font-weight', ['400', 'bold', 'semi-bold', '1000']],
    ['line-height', ['1.5', '24px']],
    ['letter-spacing', ['-0.01em', '0.1rem']],
    [
      'easing',
      ['ease-in-out', 'cubic-bezier(0.4, 0, 0.2, 1)', 'cubic-bezier(0.3, -0.5, 0.7, 1.5)'],
    ],
  ])('%s accepts %j', async (category, values) => {
    for (const [i, value] of values.entries()) {
      const { status, body } = await svc.post('/tokens', { name: `t${i}`, category, value });
      expect({ value, status, error: body.error }).toEqual({
        value,
        status: 201,
        error: undefined,
      });
    }
  });
});

describe('no value breaks out of its declaration', () => {
  it('an export of values stored before the checks still parses, leaving those out', async () => {
    const db = svc.db.schema('palette') as PaletteDb;
    await svc.create('/tokens', token('spacing', '1rem'));
    for (const [name, value] of [
      ['evil', '1rem; } body { display: none'],
      ['broken', '1rem }'],
      ['comment', '1px /* x'],
    ])
      await insertToken(db, {
        name,
        category: 'spacing',
        value_default: value,
        value_dark: '2px } p {',
        css_variable: `--${name}`,
        tailwind_key: name,
        tags: [],
      });
    for (const format of ['css', 'tailwind4']) {
      const css = (await svc.get(`/export?format=${format}`)).body.data.output as string;
      const selectors: string[] = [];
      const props: string[] = [];
      postcss.parse(css).walkRules((rule) => void selectors.push(rule.selector));
      postcss.parse(css).walkDecls((decl) => void props.push(decl.prop));
      expect(selectors).not.toContain('body');
      expect(selectors).not.toContain('p');
      const name = (n: string) => (format === 'css' ? `--${n}` : `--spacing-${n}`);
      expect(props).toContain(name('x'));
      expect(props).not.toContain(name('evil'));
      expect(css).toContain(`/* ${name('evil')} left out: its value is not a length`);
    }
    const json = JSON.parse((await svc.get('/export?format=json')).body.data.output);
    expect(Object.keys(json)).toEqual(['x']);
    const preset = (await svc.get('/export?format=tailwind')).body.data.output as string;
    expect(preset).not.toContain('evil');
  });
});

describe('names keep their words', () => {
  it('derives kebab-case variables from camelCase names instead of lower-casing them', async () => {
    const created = await svc.create('/tokens', {
      name: 'bgColor-default',
      category: 'color',
      value: '#fff',
    });
    expect(created).toMatchObject({
      cssVariable: '--bg-color-default',
      tailwindKey: 'bg-color-default',
    });
    const weight = await svc.create('/tokens', {
      name: 'fontWeight-semibold',
      category: 'font-weight',
      value: '600',
    });
    expect(weight).toMatchObject({
      cssVariable: '--font-weight-semibold',
      tailwindKey: 'semibold',
    });
    // A case the author chose is kept when given.
    const exact = await svc.create('/tokens', {
      name: 'fgColor-muted',
      category: 'color',
      value: '#666',
      cssVariable: '--fgColor-muted',
    });
    expect(exact.cssVariable).toBe('--fgColor-muted');
    expect((await svc.get('/export?format=css')).body.data.output).toContain(
      '--fgColor-muted: #666;',
    );
  });

  it('a rename re-derives a variable derived by the old rule', async () => {
    const db = svc.db.schema('palette') as PaletteDb;
    await insertToken(db, {
      name: 'bgColor-old',
      category: 'color',
      value_default: '#fff',
      css_variable: '--bgcolor-old',
      tailwind_key: 'bgcolor-old',
      tags: [],
    });
    const renamed = await svc.put('/tokens/bgColor-old', { name: 'bgColor-new' });
    expect(renamed.body.data).toMatchObject({
      cssVariable: '--bg-color-new',
      tailwindKey: 'bg-color-new',
    });
  });
});

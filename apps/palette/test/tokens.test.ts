import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';

const svc = useService(paletteUnderTest);

describe('tokens', () => {
  it('creates a token, deriving cssVariable and tailwindKey from the name', async () => {
    const { status, body } = await svc.post('/tokens', {
      name: 'color-Brand-Primary',
      category: 'color',
      value: '#0055ff',
      dark: 'oklch(80% 0.1 250)',
      group: 'brand',
      description: 'Main',
      tags: ['core', 'core'],
    });
    expect(status).toBe(201);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'color-Brand-Primary',
      category: 'color',
      value: { default: '#0055ff', dark: 'oklch(80% 0.1 250)' },
      aliases: { default: null, dark: null },
      modes: {},
      path: null,
      cssVariable: '--color-brand-primary',
      tailwindKey: 'brand-primary',
      group: 'brand',
      description: 'Main',
      tags: ['core'],
      createdBy: null,
      team: null,
      created: expect.stringMatching(/Z$/),
      updated: expect.stringMatching(/Z$/),
    });
  });

  it('accepts value as { default, dark } and explicit cssVariable and tailwindKey', async () => {
    const token = await svc.create('/tokens', {
      name: 'gap',
      category: 'spacing',
      value: { default: '8px', dark: '10px' },
      cssVariable: '--ds-gap',
      tailwindKey: 'gutter',
    });
    expect(token).toMatchObject({
      value: { default: '8px', dark: '10px' },
      cssVariable: '--ds-gap',
      tailwindKey: 'gutter',
    });
  });

  it.each([
    [{ category: 'color', value: '#fff' }, 'Token name is required (name)'],
    [{ name: 'x', value: '#fff' }, 'Category is required (category)'],
    [
      { name: 'x', category: 'colour', value: '#fff' },
      'category must be one of: color, spacing, typography, radius, shadow, opacity, z-index, motion, breakpoint, border, font-family, font-weight, line-height, letter-spacing, easing, dimension, number, stroke-style, border-composite, transition, gradient, text-style',
    ],
    [{ name: 'x', category: 'color' }, 'Value is required (value)'],
    [
      { name: 'x', category: 'color', value: 'not-a-color' },
      'value is not a CSS color: not-a-color',
    ],
    [
      { name: 'x', category: 'color', value: '#fff', dark: '#ggg' },
      'dark is not a CSS color: #ggg',
    ],
    [{ name: 'has space', category: 'spacing', value: '1px' }, 'name has an invalid format'],
    [
      { name: 'x', category: 'spacing', value: '1px', cssVariable: 'x' },
      'cssVariable has an invalid format',
    ],
    [
      { name: 'x', category: 'spacing', value: '1px', group: 'a..b' },
      'group has an invalid format',
    ],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await svc.post('/tokens', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await svc.get('/tokens')).body.data).toEqual([]);
  });

  it('answers 409 for a taken name, cssVariable or tailwindKey', async () => {
    await svc.create('/tokens', { name: 'color-a', category: 'color', value: 'red' });
    const cases = [
      [
        { name: 'COLOR-A', category: 'color', value: 'red' },
        'A token named COLOR-A exists already',
      ],
      [
        { name: 'other', category: 'color', value: 'red', cssVariable: '--color-a' },
        'Another token has that cssVariable',
      ],
      [
        { name: 'other', category: 'color', value: 'red', tailwindKey: 'a' },
        'Another token of that category has that tailwindKey',
      ],
    ] as const;
    for (const [payload, message] of cases) {
      const { status, body } = await svc.post('/tokens', payload);
      expect(status).toBe(409);
      expect(body.error.message).toBe(message);
    }
    // The same key in another category is fine.
    expect(
      (await svc.post('/tokens', { name: 'spacing-a', category: 'spacing', value: '1px' })).status,
    ).toBe(201);
  });

  it('filters by category, group and tag', async () => {
    await svc.create('/tokens', {
      name: 'red',
      category: 'color',
      value: 'red',
      group: 'base',
      tags: ['warm'],
    });
    await svc.create('/tokens', { name: 'blue', category: 'color', value: 'blue', group: 'base' });
    await svc.create('/tokens', { name: 'gap', category: 'spacing', value: '4px', tags: ['warm'] });
    const names = async (q: string) =>
      (await svc.get(`/tokens${q}`)).body.data.map((t: { name: string }) => t.name);
    expect(await names('')).toEqual(['blue', 'gap', 'red']);
    expect(await names('?category=color')).toEqual(['blue', 'red']);
    expect(await names('?group=base&tag=warm')).toEqual(['red']);
    expect(await names('?tag=warm')).toEqual(['gap', 'red']);
    expect((await svc.get('/tokens?category=paint')).status).toBe(400);
  });

  it('updates: a rename re-derives what was derived, checks colors, keeps the rest', async () => {
    const token = await svc.create('/tokens', {
      name: 'color-old',
      category: 'color',
      value: 'red',
    });
    const renamed = await svc.put(`/tokens/${token.id}`, { name: 'color-new', dark: 'maroon' });
    expect(renamed.body.data).toMatchObject({
      name: 'color-new',
      cssVariable: '--color-new',
      tailwindKey: 'new',
      value: { default: 'red', dark: 'maroon' },
    });
    const custom = await svc.create('/tokens', {
      name: 'pad',
      category: 'spacing',
      value: '1px',
      cssVariable: '--my-pad',
    });
    expect((await svc.put('/tokens/pad', { name: 'padding' })).body.data.cssVariable).toBe(
      '--my-pad',
    );
    expect((await svc.put('/tokens/color-new', { value: 'nope' })).body.error.message).toBe(
      'value is not a CSS color: nope',
    );
    expect((await svc.put('/tokens/padding', { category: 'color' })).body.error.message).toBe(
      'value is not a CSS color: 1px',
    );
    expect((await svc.put('/tokens/ghost', { value: '1px' })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Token not found: ghost',
    });
    expect((await svc.get(`/tokens/${custom.id}`)).body.data.category).toBe('spacing');
  });

  it('shows usage and refuses to delete a token that components use', async () => {
    await svc.create('/tokens', { name: 'ink', category: 'color', value: 'black' });
    await svc.create('/components', { name: 'Button', tokens: ['INK'] });
    await svc.create('/patterns', { name: 'Form', components: ['button'] });
    const { body } = await svc.get('/tokens/ink');
    expect(body.data.usage).toEqual({
      components: [{ id: expect.any(String), name: 'Button' }],
      patterns: [{ id: expect.any(String), name: 'Form' }],
      tokens: [],
    });
    const refused = await svc.del('/tokens/ink');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('Token ink is used by components: Button');
    await svc.put('/components/button', { tokens: [] });
    expect((await svc.del('/tokens/ink')).status).toBe(200);
    expect((await svc.get('/tokens/ink')).status).toBe(404);
  });
});

describe('GET /tokens/contrast', () => {
  beforeEach(async () => {
    await svc.create('/tokens', { name: 'ink', category: 'color', value: '#000', dark: '#eeeeee' });
    await svc.create('/tokens', {
      name: 'paper',
      category: 'color',
      value: '#fff',
      dark: '#121212',
    });
    await svc.create('/tokens', { name: 'grey', category: 'color', value: '#777' });
    await svc.create('/tokens', { name: 'gap', category: 'spacing', value: '4px' });
  });

  it('gives the ratio in both modes and the AA/AAA verdicts', async () => {
    const { body } = await svc.get('/tokens/contrast?foreground=ink&background=paper');
    expect(body.data).toEqual({
      foreground: { id: expect.any(String), name: 'ink' },
      background: { id: expect.any(String), name: 'paper' },
      light: { ratio: 21, aa: { normal: true, large: true }, aaa: { normal: true, large: true } },
      dark: { ratio: 16.15, aa: { normal: true, large: true }, aaa: { normal: true, large: true } },
    });
    // #777 on white is 4.48: large text only.
    const grey = (await svc.get('/tokens/contrast?foreground=grey&background=paper')).body.data;
    expect(grey.light).toEqual({
      ratio: 4.48,
      aa: { normal: false, large: true },
      aaa: { normal: false, large: false },
    });
    // Without a dark value, the default is used in dark mode.
    expect(grey.dark.ratio).toBe(4.18);
  });

  it.each([
    ['?foreground=ink', 400, 'Background is required (background)'],
    ['?foreground=ink&background=ghost', 404, 'Token not found: ghost'],
    ['?foreground=gap&background=paper', 400, 'Token gap is not a color (spacing)'],
  ])('answers %s with %i', async (query, status, message) => {
    const res = await svc.get(`/tokens/contrast${query}`);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
  });
});

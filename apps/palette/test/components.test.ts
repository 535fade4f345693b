import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';

const svc = useService(paletteUnderTest);
beforeEach(async () => {
  await svc.create('/tokens', { name: 'ink', category: 'color', value: '#111' });
  await svc.create('/tokens', { name: 'gap', category: 'spacing', value: '4px' });
});

describe('components', () => {
  it('creates one with props, variants and tokens by id or name', async () => {
    const gap = (await svc.get('/tokens/gap')).body.data;
    const { status, body } = await svc.post('/components', {
      name: 'Button',
      status: 'stable',
      category: 'actions',
      description: 'Clickable',
      props: [
        { name: 'size', type: '"sm" | "md"', required: true, default: 'md' },
        { name: 'disabled' },
      ],
      variants: [{ name: 'primary', description: 'Main action' }],
      tokens: ['INK', gap.id, 'ink'],
      tags: ['form'],
    });
    expect(status).toBe(201);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'Button',
      status: 'stable',
      category: 'actions',
      description: 'Clickable',
      props: [
        { name: 'size', type: '"sm" | "md"', required: true, default: 'md', description: null },
        { name: 'disabled', type: 'string', required: false, default: null, description: null },
      ],
      variants: [{ name: 'primary', description: 'Main action' }],
      examples: [],
      tokens: [expect.any(String), gap.id],
      tags: ['form'],
      createdBy: null,
      team: null,
      created: expect.any(String),
      updated: expect.any(String),
    });
  });

  it('returns the resolved relations on get', async () => {
    await svc.create('/components', { name: 'Button', tokens: ['ink'] });
    await svc.create('/patterns', { name: 'Form', components: ['button'] });
    await svc.create('/a11y', {
      name: 'Contrast',
      severity: 'serious',
      wcag: '1.4.3',
      level: 'AA',
      components: ['Button'],
    });
    const { body } = await svc.get('/components/BUTTON');
    expect(body.data.resolved).toEqual({
      tokens: [
        expect.objectContaining({
          name: 'ink',
          cssVariable: '--ink',
          value: { default: '#111', dark: null },
        }),
      ],
      patterns: [{ id: expect.any(String), name: 'Form' }],
      rules: [
        {
          id: expect.any(String),
          name: 'Contrast',
          severity: 'serious',
          wcag: '1.4.3',
          level: 'AA',
        },
      ],
    });
  });

  it.each([
    [{}, 'Component name is required (name)'],
    [
      { name: 'X', status: 'final' },
      'status must be one of: draft, experimental, beta, stable, deprecated',
    ],
    [{ name: 'X', tokens: ['ghost'] }, 'Unknown token: ghost'],
    [{ name: 'X', props: [{ type: 'string' }] }, 'Prop name is required (props[0].name)'],
    [{ name: 'X', props: [{ name: 'a' }, { name: 'A' }] }, 'Two props are named A'],
    [{ name: 'X', variants: [{ name: 'v' }, { name: 'v' }] }, 'Two variants are named v'],
    [
      { name: 'X', props: [{ name: 'a', required: 'yes' }] },
      'props[0].required must be true or false',
    ],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await svc.post('/components', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await svc.get('/components')).body.data).toEqual([]);
  });

  it('answers 409 for a taken name', async () => {
    await svc.create('/components', { name: 'Card' });
    expect((await svc.post('/components', { name: 'card' })).body.error).toEqual({
      code: 'CONFLICT',
      message: 'A component named card exists already',
    });
  });

  it('adds props, variants and examples; a repeated name is 409', async () => {
    await svc.create('/components', { name: 'Card', props: [{ name: 'title' }] });
    const prop = await svc.post('/components/card/props', {
      name: 'elevation',
      type: 'number',
      default: '1',
    });
    expect(prop.status).toBe(200);
    expect(prop.body.data.props.map((p: { name: string }) => p.name)).toEqual([
      'title',
      'elevation',
    ]);
    const dup = await svc.post('/components/card/props', { name: 'TITLE' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('Component Card has a prop named TITLE already');
    expect(
      (await svc.post('/components/card/variants', { name: 'flat' })).body.data.variants,
    ).toEqual([{ name: 'flat', description: null }]);
    expect((await svc.post('/components/card/variants', { name: 'flat' })).status).toBe(409);
    const example = await svc.post('/components/card/examples', {
      name: 'Basic',
      code: '<Card title="Hi" />',
    });
    expect(example.body.data.examples).toEqual([
      { name: 'Basic', code: '<Card title="Hi" />', description: null },
    ]);
    expect(
      (await svc.post('/components/card/examples', { name: 'Other' })).body.error.message,
    ).toBe('Code is required (code)');
    expect((await svc.post('/components/ghost/props', { name: 'x' })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Component not found: ghost',
    });
  });

  it('keeps one of two concurrent adds of the same prop', async () => {
    await svc.create('/components', { name: 'Card' });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => svc.post('/components/card/props', { name: 'title' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await svc.get('/components/card')).body.data.props).toHaveLength(1);
  });

  it('filters by status, category and tag; updates and deletes', async () => {
    await svc.create('/components', {
      name: 'Button',
      status: 'stable',
      category: 'actions',
      tags: ['form'],
    });
    await svc.create('/components', {
      name: 'Input',
      status: 'beta',
      category: 'forms',
      tags: ['form'],
    });
    await svc.create('/components', { name: 'Old', status: 'deprecated' });
    const names = async (q: string) =>
      (await svc.get(`/components${q}`)).body.data.map((c: { name: string }) => c.name);
    expect(await names('?tag=form')).toEqual(['Button', 'Input']);
    expect(await names('?status=deprecated')).toEqual(['Old']);
    expect(await names('?category=actions')).toEqual(['Button']);
    const updated = await svc.put('/components/input', {
      status: 'stable',
      tokens: ['gap'],
      props: [{ name: 'value' }],
    });
    expect(updated.body.data).toMatchObject({
      status: 'stable',
      props: [{ name: 'value' }],
      tokens: [expect.any(String)],
    });
    expect((await svc.put('/components/input', { name: 'button' })).status).toBe(409);
    expect((await svc.put('/components/input', { tokens: ['nope'] })).body.error.message).toBe(
      'Unknown token: nope',
    );
    const pattern = await svc.create('/patterns', {
      name: 'Login',
      components: ['Input', 'Button'],
    });
    const deleted = await svc.del('/components/input');
    expect(deleted.body.data.name).toBe('Input');
    expect((await svc.get(`/patterns/${pattern.id}`)).body.data.components).toHaveLength(1);
    expect((await svc.get('/components/input')).status).toBe(404);
  });

  it('keeps the fields a PUT leaves out, defaults included', async () => {
    await svc.create('/components', { name: 'Card', status: 'stable', category: 'layout' });
    const { body } = await svc.put('/components/card', { description: 'A box' });
    expect(body.data).toMatchObject({ status: 'stable', category: 'layout', description: 'A box' });
    const token = await svc.put('/tokens/ink', { description: 'Text' });
    expect(token.body.data).toMatchObject({ category: 'color', description: 'Text' });
  });

  it('refuses query parameters a list does not know (platform rule, issue 12)', async () => {
    await svc.create('/components', { name: 'Card' });
    for (const path of ['/components', '/patterns', '/standards', '/a11y', '/tokens']) {
      const { status, body } = await svc.get(`${path}?unknown=1`);
      expect({ status, message: body.error?.message }).toEqual({
        status: 400,
        message: 'querystring has an unknown field: unknown',
      });
    }
  });
});

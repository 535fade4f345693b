import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';

const svc = useService(paletteUnderTest);
beforeEach(async () => {
  await svc.create('/components', { name: 'Button', status: 'stable' });
  await svc.create('/components', { name: 'Input', status: 'beta' });
});

describe('patterns', () => {
  it('creates one, appends ordered steps, and resolves its components', async () => {
    const created = await svc.create('/patterns', {
      name: 'Sign in',
      category: 'auth',
      description: 'Log a user in',
      components: ['input'],
      tags: ['auth'],
    });
    expect(created).toMatchObject({ name: 'Sign in', components: [expect.any(String)], steps: [] });
    const first = await svc.post('/patterns/sign%20in/steps', {
      title: 'Enter email',
      component: 'Input',
    });
    expect(first.status).toBe(201);
    await svc.post(`/patterns/${created.id}/steps`, {
      title: 'Submit',
      description: 'Press it',
      component: 'button',
    });
    await svc.post(`/patterns/${created.id}/steps`, { title: 'Wait' });
    const { body } = await svc.get('/patterns/SIGN IN');
    expect(body.data.steps.map((s: { title: string }) => s.title)).toEqual([
      'Enter email',
      'Submit',
      'Wait',
    ]);
    expect(body.data.steps[2]).toEqual({ title: 'Wait', description: null, component: null });
    expect(body.data.resolved.components.map((c: { name: string }) => c.name)).toEqual([
      'Input',
      'Button',
    ]);
  });

  it('rejects bad steps and unknown components', async () => {
    await svc.create('/patterns', { name: 'P' });
    expect((await svc.post('/patterns/p/steps', {})).body.error.message).toBe(
      'Step title is required (title)',
    );
    expect(
      (await svc.post('/patterns/p/steps', { title: 't', component: 'ghost' })).body.error.message,
    ).toBe('Unknown component: ghost');
    expect((await svc.post('/patterns/ghost/steps', { title: 't' })).status).toBe(404);
    expect(
      (await svc.post('/patterns', { name: 'Q', components: ['ghost'] })).body.error.message,
    ).toBe('Unknown component: ghost');
    expect((await svc.post('/patterns', { name: 'p' })).status).toBe(409);
    expect((await svc.get('/patterns/p')).body.data.steps).toEqual([]);
  });

  it('filters, updates and deletes', async () => {
    await svc.create('/patterns', { name: 'A', category: 'auth', tags: ['x'] });
    await svc.create('/patterns', { name: 'B', category: 'nav' });
    const names = async (q: string) =>
      (await svc.get(`/patterns${q}`)).body.data.map((p: { name: string }) => p.name);
    expect(await names('?category=auth')).toEqual(['A']);
    expect(await names('?tag=x')).toEqual(['A']);
    expect(
      (await svc.put('/patterns/b', { components: ['Button'], description: 'd' })).body.data,
    ).toMatchObject({
      description: 'd',
      components: [expect.any(String)],
    });
    expect((await svc.del('/patterns/a')).body.data.name).toBe('A');
    expect(await names('')).toEqual(['B']);
  });
});

describe('standards', () => {
  it('creates, lists with filters, gets and deletes', async () => {
    const created = await svc.create('/standards', {
      name: 'Voice and tone',
      category: 'content',
      description: 'How we write',
      guidelines: ['Be brief', 'Use active voice'],
      tags: ['writing'],
    });
    expect(created).toMatchObject({
      guidelines: ['Be brief', 'Use active voice'],
      category: 'content',
    });
    await svc.create('/standards', { name: 'Icons', category: 'visual' });
    const names = async (q: string) =>
      (await svc.get(`/standards${q}`)).body.data.map((s: { name: string }) => s.name);
    expect(await names('?category=content')).toEqual(['Voice and tone']);
    expect(await names('?tag=writing')).toEqual(['Voice and tone']);
    expect((await svc.get('/standards/icons')).body.data.name).toBe('Icons');
    expect((await svc.del(`/standards/${created.id}`)).body.data.id).toBe(created.id);
    expect((await svc.get(`/standards/${created.id}`)).body.error.message).toBe(
      `Standard not found: ${created.id}`,
    );
    expect((await svc.post('/standards', { name: 'icons' })).status).toBe(409);
    expect((await svc.post('/standards', { name: 'G', guidelines: [''] })).body.error.message).toBe(
      'guidelines[0] must not be empty',
    );
  });
});

describe('accessibility rules', () => {
  it('creates one, lists with filters, and shows its component usage', async () => {
    const rule = await svc.create('/a11y', {
      name: 'Color contrast',
      category: 'color',
      severity: 'serious',
      wcag: '1.4.3',
      level: 'AA',
      description: 'Text contrast at least 4.5:1',
      components: ['Button', 'input'],
      tags: ['visual'],
    });
    expect(rule).toMatchObject({
      severity: 'serious',
      wcag: '1.4.3',
      level: 'AA',
      components: [expect.any(String), expect.any(String)],
    });
    await svc.create('/a11y', { name: 'Labels', severity: 'critical', wcag: '1.3.1', level: 'A' });
    const names = async (q: string) =>
      (await svc.get(`/a11y${q}`)).body.data.map((r: { name: string }) => r.name);
    expect(await names('?severity=critical')).toEqual(['Labels']);
    expect(await names('?category=color&tag=visual')).toEqual(['Color contrast']);
    const { body } = await svc.get('/a11y/color contrast');
    expect(body.data.usage.components).toEqual([
      { id: expect.any(String), name: 'Button', status: 'stable' },
      { id: expect.any(String), name: 'Input', status: 'beta' },
    ]);
    expect((await svc.del('/a11y/labels')).body.data.name).toBe('Labels');
    expect(await names('')).toEqual(['Color contrast']);
  });

  it.each([
    [{ name: 'R' }, 'Severity is required (severity)'],
    [
      { name: 'R', severity: 'high' },
      'severity must be one of: minor, moderate, serious, critical',
    ],
    [{ name: 'R', severity: 'minor', wcag: '143' }, 'wcag has an invalid format'],
    [{ name: 'R', severity: 'minor', level: 'AAAA' }, 'level must be one of: A, AA, AAA'],
    [{ name: 'R', severity: 'minor', components: ['ghost'] }, 'Unknown component: ghost'],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await svc.post('/a11y', payload);
    expect(status).toBe(400);
    expect(body.error.message).toBe(message);
    expect((await svc.get('/a11y')).body.data).toEqual([]);
  });
});

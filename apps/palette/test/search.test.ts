import { useService } from '@platform/testing';
import { SCORES } from '../src/schemas/search';
import { paletteUnderTest } from './helpers';

const svc = useService(paletteUnderTest);
beforeEach(async () => {
  await svc.create('/tokens', {
    name: 'button-bg',
    category: 'color',
    value: 'blue',
    description: 'Fill of a button',
  });
  await svc.create('/components', { name: 'Button', description: 'A button', tags: ['form'] });
  await svc.create('/components', { name: 'IconButton' });
  await svc.create('/patterns', { name: 'Forms', description: 'Put a button at the end' });
  await svc.create('/standards', { name: 'Writing', tags: ['button-labels'] });
  await svc.create('/a11y', {
    name: 'Target size',
    severity: 'moderate',
    description: 'Buttons at least 24px',
  });
});

describe('GET /search', () => {
  it('ranks name matches above description and tag matches, across kinds', async () => {
    const { body } = await svc.get('/search?q=BUTTON');
    expect(body.data.query).toBe('BUTTON');
    expect(body.data.count).toBe(6);
    expect(
      body.data.results.map(
        (r: { kind: string; name: string; score: number }) => `${r.kind}:${r.name}:${r.score}`,
      ),
    ).toEqual([
      `component:Button:${SCORES.nameExact + SCORES.description}`,
      `token:button-bg:${SCORES.namePrefix + SCORES.description}`,
      `component:IconButton:${SCORES.nameContains}`,
      `standard:Writing:${SCORES.tag}`,
      `pattern:Forms:${SCORES.description}`,
      `rule:Target size:${SCORES.description}`,
    ]);
    expect(body.data.results[0]).toEqual({
      kind: 'component',
      id: expect.any(String),
      name: 'Button',
      description: 'A button',
      score: 110,
    });
  });

  it('filters by kind and limits', async () => {
    const kinds = (await svc.get('/search?q=button&kind=component')).body.data.results.map(
      (r: { kind: string }) => r.kind,
    );
    expect(kinds).toEqual(['component', 'component']);
    expect((await svc.get('/search?q=button&limit=1')).body.data).toMatchObject({ count: 1 });
    expect((await svc.get('/search?q=zebra')).body.data).toEqual({
      query: 'zebra',
      count: 0,
      results: [],
    });
  });

  it.each([
    ['', 'The search term is required (q)'],
    ['?q=%20', 'q (the search term) must not be empty'],
    ['?q=a&kind=widget', 'kind must be one of: token, component, pattern, standard, rule'],
  ])('rejects %s', async (query, message) => {
    const res = await svc.get(`/search${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
  });
});

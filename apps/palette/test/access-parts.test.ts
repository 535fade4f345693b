import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import type { PaletteDatabase } from '../src/database';
import { palette } from '../src/index';

// What belongs to a record (a component's props, variants and examples, a pattern's steps) is
// changed by the record's owners; what only reads (search, export, contrast) is for everyone
// signed in (issue 31).
const svc = useService(() => serviceUnderTest(palette, { env: AUTH_ENV, jobs: false }), {
  scope: 'all',
});
beforeAll(async () => {
  // The owner's component and pattern, for team payments; a token of a stranger's.
  const owner = as(CALLERS.owner);
  await owner.post('/components', { name: 'Button' });
  await admin().put('/components/Button', { team: 'payments' });
  await owner.post('/patterns', { name: 'Checkout' });
  await admin().put('/patterns/Checkout', { team: 'payments' });
  await as(CALLERS.stranger).post('/tokens', { name: 'ink', category: 'color', value: '#111' });
  await as(CALLERS.stranger).post('/tokens', { name: 'paper', category: 'color', value: '#fff' });
});

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, palette.prefix, identity);
const admin = () => as(CALLERS.admin);

const PARTS = [
  ['/components/Button/props', { name: 'size' }, 'props'],
  ['/components/Button/variants', { name: 'primary' }, 'variants'],
  ['/components/Button/examples', { name: 'basic', code: '<Button />' }, 'examples'],
  ['/patterns/Checkout/steps', { title: 'Pay' }, 'steps'],
] as const;
const recordOf = (url: string) => url.split('/').slice(0, 3).join('/');
const resourceOf = (url: string) => (url.startsWith('/components') ? 'component' : 'pattern');

describe('parts of a record', () => {
  it.each(PARTS)('%s: refused to others, unchanged', async (url, body) => {
    const before = (await admin().get(recordOf(url))).body.data;
    const refusals: Array<[Identity, string]> = [
      [CALLERS.stranger, 'ownership (it belongs to owner@example.com and team payments)'],
      [CALLERS.viewer, 'the role member (or admin)'],
      [keyCaller(['palette:read'], { name: 'reader' }), 'the scope palette:write'],
    ];
    for (const [caller, missing] of refusals) {
      const res = await as(caller).post(url, body);
      expect(res.status).toBe(403);
      const name = caller.kind === 'key' ? 'key:reader' : (caller as { email: string }).email;
      expect(res.body.error.message).toBe(
        `${name} may not update palette.${resourceOf(url)}: it needs ${missing}`,
      );
    }
    expect((await as(undefined).post(url, body)).status).toBe(401);
    expect((await admin().get(recordOf(url))).body.data).toEqual(before);
  });

  it.each(PARTS)('%s: added by the creator, the team and admins', async (url, body, list) => {
    const named = (n: number) =>
      'name' in body ? { ...body, name: `${body.name}-${n}` } : { ...body, title: `Pay ${n}` };
    expect((await as(CALLERS.owner).post(url, named(1))).status).toBeLessThan(300);
    expect((await as(CALLERS.teamMate).post(url, named(2))).status).toBeLessThan(300);
    expect((await admin().post(url, named(3))).status).toBeLessThan(300);
    expect((await admin().get(recordOf(url))).body.data[list]).toHaveLength(3);
    const missing = url.replace(/Button|Checkout/, 'Ghost');
    expect((await as(CALLERS.stranger).post(missing, named(4))).status).toBe(404);
  });
});

describe('reads of everything', () => {
  it('search, export and contrast are for every signed-in caller and read key', async () => {
    const reads = [
      '/search?q=button',
      '/export?format=css',
      '/tokens/contrast?foreground=ink&background=paper',
    ];
    for (const url of reads) {
      for (const caller of [CALLERS.viewer, CALLERS.stranger, keyCaller(['palette:read'])])
        expect((await as(caller).get(url)).status).toBe(200);
      expect((await as(undefined).get(url)).status).toBe(401);
      expect((await as(keyCaller(['pulse:ingest'])).get(url)).status).toBe(403);
    }
    const found = await as(CALLERS.viewer).get('/search?q=button');
    expect(found.body.data.results.map((r: { name: string }) => r.name)).toEqual(['Button']);
    const css = await as(CALLERS.viewer).get('/export?format=css');
    expect(css.body.data.output).toContain('--ink: #111;');
  });
});

describe('records made before ownership', () => {
  it('belong to no one: only admins change or delete them', async () => {
    const db = svc.db.schema<PaletteDatabase>(palette.name);
    await db
      .insertInto('standards')
      .values({
        id: 'legacy01',
        name: 'legacy',
        description: null,
        category: null,
        tags: '[]' as unknown as string[],
        guidelines: '[]' as unknown as string[],
        created_by: null,
        team: null,
      })
      .execute();
    const refused = await as(CALLERS.owner).del('/standards/legacy');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'owner@example.com may not delete palette.standard: it needs the role admin (it belongs to no one)',
    );
    expect((await admin().get('/standards/legacy')).body.data).toMatchObject({
      createdBy: null,
      team: null,
    });
    expect((await admin().del('/standards/legacy')).status).toBe(200);
  });
});

describe("an import's modes", () => {
  it("change an existing mode's selector or media query for admins only", async () => {
    const file = (selector: string, media: string | null = null) => ({
      resolver: {
        version: '2025.10',
        sets: { s: { sources: [{ hue: { $type: 'number', $value: 1 } }] } },
        modifiers: { brand: { contexts: { a: [], b: [{ hue: { $value: 2 } }] }, default: 'a' } },
        resolutionOrder: [{ $ref: '#/sets/s' }, { $ref: '#/modifiers/brand' }],
      },
      modes: { 'brand:b': { selector, media } },
    });
    expect((await as(CALLERS.owner).post('/import', file('.brand-b'))).status).toBe(200);
    const modes = (await admin().get('/modes')).body.data;
    for (const [selector, media] of [
      ['.other', null],
      ['.brand-b', '(prefers-contrast: more)'],
    ] as const) {
      const refused = await as(CALLERS.owner).post('/import', file(selector, media));
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe(
        'owner@example.com may not change the selector or media query of mode brand:b: the role admin is needed, nothing written',
      );
    }
    expect((await admin().get('/modes')).body.data).toEqual(modes);
    expect((await as(CALLERS.owner).post('/import', file('.brand-b'))).status).toBe(200);
    expect((await admin().post('/import', file('.other'))).status).toBe(200);
    expect((await admin().get('/modes')).body.data).toContainEqual({
      name: 'brand:b',
      selector: '.other',
      media: null,
    });
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import postcss from 'postcss';
import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';
import { styleDictionaryCss } from './style-dictionary';

// DTCG 2025.10 imports (issue 37): files as published (the DTCG repository's examples), every
// type, a resolver with two modifiers, round trips, all or nothing.

const svc = useService(paletteUnderTest, { scope: 'all' });
const FIXTURES = join(__dirname, 'fixtures/dtcg');
const read = (file: string) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
/** Every JSON file under a fixture directory, by its path there (what `$ref`s name). */
function documentsOf(dir: string) {
  const out: Record<string, unknown> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else out[relative(join(FIXTURES, dir), file)] = JSON.parse(readFileSync(file, 'utf8'));
    }
  };
  walk(join(FIXTURES, dir));
  return out;
}

const everyType = read('every-type.tokens.json');
const resolver = {
  version: '2025.10',
  sets: { base: { sources: [{ $ref: 'every-type.tokens.json' }] } },
  modifiers: {
    theme: {
      contexts: {
        light: [],
        dark: [
          {
            color: {
              blue: {
                500: {
                  $type: 'color',
                  $value: { colorSpace: 'srgb', components: [0.6, 0.7, 1], hex: '#99b3ff' },
                },
              },
            },
          },
        ],
      },
      default: 'light',
    },
    brand: {
      contexts: {
        a: [],
        b: [
          {
            color: { primary: { $value: '{color.red.500}' } },
            size: { 2: { $type: 'dimension', $value: { value: 10, unit: 'px' } } },
          },
        ],
      },
      default: 'a',
    },
  },
  resolutionOrder: [
    { $ref: '#/sets/base' },
    { $ref: '#/modifiers/theme' },
    { $ref: '#/modifiers/brand' },
  ],
};
const body = {
  resolver,
  documents: { 'every-type.tokens.json': everyType },
  modes: { 'brand:b': { selector: '.brand-b', media: '(prefers-contrast: more)' } },
};

const exported = async (format: string) => {
  const res = await svc.get(`/export?format=${format}`);
  expect(res.status).toBe(200);
  return res.body.data.output as string;
};
const count = async () => (await svc.get('/tokens?limit=1000')).body.data.length as number;

describe('DTCG import', () => {
  it('refuses a broken file whole, listing every problem with its path, writing nothing', async () => {
    const broken = {
      a: { $type: 'color', $value: { colorSpace: 'rgb', components: [1, 2] } },
      b: { $type: 'dimension', $value: '16 px' },
      c: { $type: 'duration', $value: { value: 1, unit: 'min' } },
      d: { $type: 'fontWeight', $value: 'fat' },
      e: { $type: 'cubicBezier', $value: [2, 0, 1] },
      f: { $type: 'shadow', $value: { color: '{nowhere}', offsetX: { value: 1, unit: 'px' } } },
      g: { $value: 3 },
      h: { $type: 'string', $value: 'x' },
      'i.j': { $type: 'number', $value: 1 },
      k: { $type: 'border', $value: { color: '{a}', width: '{d}', style: 'wavy' } },
      l: { $type: 'number', $value: '{missing.token}' },
      m: { $type: 'gradient', $value: [{ color: '{a}' }] },
      ok: { $type: 'number', $value: 1 },
    };
    const before = await count();
    const res = await svc.post('/import', broken);
    expect(res.status).toBe(400);
    const message: string = res.body.error.message;
    expect(message).toMatch(/^Import refused, nothing written: \d+ problems/);
    for (const path of [
      'document#/a/$value/colorSpace',
      'document#/a/$value/components',
      'document#/b/$value',
      'document#/c/$value',
      'document#/d/$value',
      'document#/e/$value',
      'document#/f/$value/color',
      'document#/f/$value/offsetY',
      'document#/g: no $type',
      'document#/h/$type',
      'document#/i.j',
      'document#/k/$value/width',
      'document#/k/$value/style',
      'document#/l/$value',
      'document#/m/$value/0/position',
    ])
      expect(message).toContain(path);
    expect(await count()).toBe(before);
  });

  it('imports every type and a resolver with two modifiers; export and re-import are equal', async () => {
    const dry = await svc.post('/import?dryRun=true', body);
    expect(dry.body.error?.message ?? dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, updated: 0, unchanged: 0 });
    expect(await count()).toBe(0);

    const res = await svc.post('/import', body);
    expect(res.status).toBe(200);
    const created = res.body.data.created as number;
    expect(created).toBeGreaterThan(35);
    expect(res.body.data.modes).toEqual(['theme:dark', 'brand:b']);
    expect(res.body.data.ignored).toContainEqual({
      path: 'every-type.tokens.json#/color/$description',
      reason: "a group's $description is not kept",
    });
    // Categories from $type: a size scale is dimensions, negative steps and all.
    const sizes = (await svc.get('/tokens?category=dimension')).body.data;
    expect(sizes.map((t: { group: string }) => t.group)).toEqual(['size', 'size', 'size']);
    expect(sizes.map((t: { value: { default: string } }) => t.value.default).sort()).toEqual([
      '-4px',
      '0.25rem',
      '8px',
    ]);

    const first = JSON.parse(await exported('dtcg'));
    const tokens = first.documents['tokens.json'];
    // What was read is written back as it was written.
    expect(tokens.color.red['500'].$value).toEqual(everyType.color.red['500'].$value);
    expect(tokens.color.action.$value).toEqual({ $ref: '#/color/blue/500' });
    expect(tokens.color.action.$extensions).toEqual({ 'org.example': { figma: 'Action' } });
    expect(tokens.color.primary).toMatchObject({ $type: 'color', $deprecated: 'Use color.action' });
    expect(tokens.elevation.two.$value).toEqual(everyType.elevation.two.$value);
    expect(tokens.semantic.hwb.$value).toEqual(everyType.color.spaces.hwb.$value);
    expect(first.documents['brand/b.json'].size['2'].$value).toEqual({ value: 10, unit: 'px' });

    const again = await svc.post('/import?missing=delete', first);
    expect(again.status).toBe(200);
    const changed = again.body.data.tokens.filter(
      (t: { action: string }) => t.action !== 'unchanged',
    );
    expect(changed).toEqual([]);
    expect(again.body.data).toMatchObject({
      created: 0,
      updated: 0,
      deleted: 0,
      unchanged: created,
    });
    expect(JSON.parse(await exported('dtcg'))).toEqual(first);
  });

  it('exports CSS per mode under the selectors named (parsed with postcss)', async () => {
    const css = await exported('css');
    const rules = new Map<string, Record<string, string>>();
    postcss.parse(css).walkRules((rule) => {
      const media =
        rule.parent?.type === 'atrule' ? `@${(rule.parent as postcss.AtRule).params} ` : '';
      const decls: Record<string, string> = {};
      rule.walkDecls((d) => void (decls[d.prop] = d.value));
      rules.set(media + rule.selector, decls);
    });
    expect(rules.get(':root')).toMatchObject({
      '--size-1': '0.25rem',
      '--size--1': '-4px',
      '--color-primary': 'var(--color-blue-500)',
      '--motion-fade': 'var(--motion-fast) var(--motion-ease) 0ms',
    });
    expect(rules.get('[data-theme="dark"]')).toEqual({
      '--color-blue-500': 'color(srgb 0.6 0.7 1)',
    });
    expect(rules.get('.brand-b')).toEqual({
      '--color-primary': 'var(--color-red-500)',
      '--size-2': '10px',
    });
    expect(rules.get('@(prefers-contrast: more) :root')).toEqual(rules.get('.brand-b'));
    expect((await svc.get('/modes')).body.data).toEqual([
      { name: 'brand:b', selector: '.brand-b', media: '(prefers-contrast: more)' },
    ]);
  });

  it('refuses hostile mode names and selectors; the CSS export stays one rule per block', async () => {
    const hostile = {
      resolver: {
        ...resolver,
        modifiers: { ...resolver.modifiers, 'x"]{}': { contexts: { a: [], b: [] } } },
        resolutionOrder: [...resolver.resolutionOrder, { $ref: '#/modifiers/x"]{}' }],
      },
      documents: body.documents,
    };
    const bad = await svc.post('/import', hostile);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('the modifier name "x\\"]{}" is not letters');
    for (const selector of ['.a, /* x', '[data-brand="b]', '.a } :root { --x: red', '[data-x'])
      for (const modes of [
        { 'brand:b': { selector } },
        { 'brand:b': { selector: '.b', media: selector } },
      ]) {
        const res = await svc.post('/import', { ...body, modes });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(
          /body#\/modes\/brand:b\/(selector: a CSS selector|media: a media query) is expected/,
        );
      }
    const named = await svc.post('/import', { ...body, modes: { 'a b:c': { selector: '.x' } } });
    expect(named.body.error.message).toContain('body#/modes/a b:c: a mode is <modifier>:<context>');
    const css = await exported('css');
    const root = postcss.parse(css);
    expect(root.nodes.every((n) => n.type === 'rule' || n.type === 'atrule')).toBe(true);
    expect(css).not.toContain('x"]');
  });

  it('writes a JSON export Style Dictionary 4.4 builds CSS variables from', async () => {
    const css = await styleDictionaryCss(JSON.parse(await exported('json')));
    const decls: Record<string, string> = {};
    postcss.parse(css).walkDecls((d) => void (decls[d.prop] = d.value));
    expect(decls['--size-2']).toBe('8px');
    expect(decls['--color-blue-500']).toBe('#3366ff');
    expect(decls['--color-red-500']).toMatch(/^rgba\(\d+, \d+, \d+, 0\.9\)$/);
    expect(decls['--font-family']).toBe('Inter, system-ui, sans-serif');
    expect(Object.keys(decls).length).toBeGreaterThan(35);
  });

  it("imports the Figma SDS resolver as published; refuses Primer's non-DTCG $type", async () => {
    const sds = documentsOf('figma-sds');
    const res = await svc.post('/import', { resolver: sds['sds.resolver.json'], documents: sds });
    expect(res.body.error?.message ?? res.status).toBe(200);
    expect(res.body.data.modes).toEqual(['theme:dark']);
    expect(res.body.data.created).toBeGreaterThan(250);
    const primer = documentsOf('github-primer');
    const refused = await svc.post('/import', {
      resolver: primer['primer.resolver.json'],
      documents: primer,
    });
    expect(refused.status).toBe(400);
    // Primer's example predates 2025.10 in places: custom types (string durations are read as
    // the legacy form).
    expect(refused.body.error.message).toContain(
      'functional/size/viewport.tokens.json#/viewportRange/narrow/$type: "custom-viewportRange" is not a DTCG type',
    );
    expect(refused.body.error.message).not.toContain('base/duration/0/$value');
  }, 60_000);
});

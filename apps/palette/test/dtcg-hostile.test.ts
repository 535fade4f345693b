import { preludeProblem } from '../src/domain/css';
import { colorCss, colorProblems } from '../src/domain/dtcg/color';
import { toDtcgDocument } from '../src/domain/dtcg/export';
import { planImport } from '../src/domain/dtcg/plan';
import { readImport } from '../src/domain/dtcg/resolver';
import { exportTokens, TokenSet, type ExportToken } from '../src/domain/exports';

// Hostile and broken DTCG files, straight through the domain functions (no HTTP): each is a
// problem at its path, never a crash, a blow-up or a change to the process (issue 37's review).

const plan = (doc: unknown, documents?: Record<string, unknown>) =>
  planImport(readImport(doc, documents), { tokens: [], modes: new Map() }, { missing: 'keep' });
const problemsOf = (doc: unknown, documents?: Record<string, unknown>) =>
  plan(doc, documents).problems.join('\n');
const token = (over: Partial<ExportToken> & { id: string }): ExportToken => ({
  name: over.id,
  category: 'color',
  cssVariable: `--${over.id}`,
  tailwindKey: over.id,
  group: null,
  description: null,
  value_default: '#1d4ed8',
  value_dark: null,
  value_default_ref: null,
  value_dark_ref: null,
  ...over,
});
const color = { colorSpace: 'srgb', components: [0, 0, 0] };

describe('prototype pollution', () => {
  it('exports a token named constructor.keys without touching Object', () => {
    const tokens = [
      token({ id: 'a', path: 'constructor.keys' }),
      token({ id: 'b', path: '__proto__.x' }),
    ];
    const keys = Object.keys;
    for (const format of ['dtcg', 'json'] as const) {
      const out = JSON.parse(exportTokens(tokens, format));
      expect(out.constructor.keys.$value).toBeDefined();
    }
    expect(Object.keys).toBe(keys);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses reserved names and prototype keys wherever names index tables', () => {
    const doc = JSON.parse(
      '{"constructor":{"keys":{"$type":"number","$value":1}},"__proto__":{"x":{"$type":"number","$value":1}},' +
        '"prototype":{"$type":"number","$value":1},"c":{"$type":"color","$value":{"colorSpace":"constructor","components":[0,0,0]}},' +
        '"s":{"$type":"shadow","$value":{"color":{"colorSpace":"srgb","components":[0,0,0]},"offsetX":"0px","offsetY":"0px","blur":"0px","spread":"0px","constructor":1}}}',
    );
    const problems = problemsOf(doc);
    for (const at of ['document#/constructor:', 'document#/__proto__:', 'document#/prototype:'])
      expect(problems).toContain(`${at} `);
    expect(problems).toContain('document#/c/$value/colorSpace: "constructor" is not a color space');
    expect(problems).toContain('document#/s/$value/constructor: not a property of a shadow');
    const resolver = {
      version: '2025.10',
      sets: {},
      modifiers: { m: { contexts: { a: [], b: [] }, default: 'toString' } },
      resolutionOrder: [
        { $ref: '#/sets/__proto__' },
        { $ref: '#/modifiers/m' },
        { type: 'set', name: 's', sources: [{ $ref: 'toString' }, { $ref: 'constructor' }] },
      ],
    };
    const found = problemsOf(resolver);
    expect(found).toContain('resolutionOrder/0: #/sets/__proto__ is not a set or modifier');
    expect(found).toContain('resolutionOrder/1/default: "toString" is not a context of m');
    expect(found).toContain('toString is not among the documents sent');
  });
});

describe('blow-ups are problems, quickly', () => {
  it('caps alias chains (2,000 hops) and refuses cycles, typed or not', () => {
    const doc: Record<string, unknown> = { t0: { $type: 'number', $value: 1 } };
    for (let i = 1; i <= 2000; i++) doc[`t${i}`] = { $value: `{t${i - 1}}` };
    expect(problemsOf(doc)).toContain('its aliases go on for more than 100 tokens');
    const cycle = problemsOf({
      a: { $type: 'color', $value: '{b}' },
      b: { $type: 'color', $value: '{a}' },
    });
    expect(cycle).toContain('document#/a/$value: its aliases make a cycle: a -> b -> a');
  });

  it('caps $extends at 20,000 tokens, groups at 64 deep, sources read at 5,000', () => {
    const doc: Record<string, unknown> = {
      g0: { a: { $type: 'number', $value: 1 }, b: { $type: 'number', $value: 2 } },
    };
    for (let i = 1; i <= 30; i++)
      doc[`g${i}`] = { x: { $extends: `{g${i - 1}}` }, y: { $extends: `{g${i - 1}}` } };
    expect(problemsOf(doc)).toContain('$extends makes more than 20000 tokens');
    let deep: Record<string, unknown> = { t: { $type: 'number', $value: 1 } };
    for (let i = 0; i < 100; i++) deep = { g: deep };
    expect(problemsOf(deep)).toContain('groups nest at most 64 deep');
    const contexts = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`c${i}`, [{ $ref: '#/sets/s' }]]),
    );
    const many = problemsOf(
      {
        version: '2025.10',
        sets: { s: { sources: Array.from({ length: 100 }, () => ({ $ref: 'a.json' })) } },
        modifiers: { m: { contexts } },
        resolutionOrder: [{ $ref: '#/modifiers/m' }],
      },
      { 'a.json': { n: { $type: 'number', $value: 1 } } },
    );
    expect(many).toContain('read more than 5000 sources');
  });
});

describe('resolver shapes', () => {
  it('refuses non-arrays, unnamed or duplicate items, hostile names and $extends of a token', () => {
    const resolver = {
      version: '2025.10',
      sets: { s: { sources: [{ t: { $type: 'number', $value: 1 } }] } },
      modifiers: {
        'x"]{}': { contexts: { a: [] } },
        m: { contexts: { a: 'nope', b: {}, 'c d': [] }, default: 3 },
      },
      resolutionOrder: [
        { $ref: '#/sets/s' },
        { $ref: '#/sets/s' },
        { type: 'set', sources: [] },
        { $ref: '#/modifiers/x"]{}' },
        { $ref: '#/modifiers/m' },
        { type: 'set', name: 'g', sources: [{ g: { $extends: '{t}' } }] },
      ],
    };
    const problems = problemsOf(resolver);
    for (const text of [
      'resolutionOrder/1: s is already in the resolutionOrder',
      'resolutionOrder/2/name: an inline set has a name',
      'resolutionOrder/3: the modifier name "x\\"]{}" is not letters, digits, _ and -',
      'resolutionOrder/4/contexts/a: an array of sources is expected',
      'resolutionOrder/4/contexts/b: an array of sources is expected',
      'resolutionOrder/4/contexts/c d: a context name is letters, digits, _ and -',
      'resolutionOrder/4/default: the name of a context is expected',
      'extends t, which is a token, not a group',
    ])
      expect(problems).toContain(text);
  });

  it('refuses a hue of 360 in lch and oklch, and xyz beyond 0..1', () => {
    expect(colorProblems({ colorSpace: 'lch', components: [50, 10, 360] }, 'c')).toEqual([
      'c/components/2: 360 is outside 0..360 in lch',
    ]);
    expect(colorProblems({ colorSpace: 'oklch', components: [0.5, 0.1, 360] }, 'c')).toHaveLength(
      1,
    );
    expect(colorProblems({ colorSpace: 'xyz-d65', components: [1.5, 0, 0] }, 'c')).toHaveLength(1);
    expect(colorProblems({ ...color, colorSpace: 'xyz-d50' }, 'c')).toEqual([]);
  });
});

describe('CSS of modes', () => {
  it('takes one selector or media query, refuses what would break out of the rule', () => {
    for (const ok of ['.brand-b', '[data-brand="b"]', ':root.dark, .x > .y'])
      expect(preludeProblem('selector', ok)).toBe(ok.includes('>') ? 'the character >' : null);
    expect(preludeProblem('media', '(prefers-contrast: more)')).toBeNull();
    for (const bad of ['.a /* x', '.a */', '[data-x="a]', '[data-x', 'a]', '.a{} b', ':root;', ''])
      expect(preludeProblem('selector', bad)).not.toBeNull();
    expect(preludeProblem('media', 'screen) { :root')).not.toBeNull();
  });
});

describe('round trips', () => {
  it('keeps a palette color as hex, and an sRGB color of bytes with alpha as rgb()', () => {
    const hex = (h: string) => parseInt(h, 16) / 255;
    const exported = toDtcgDocument(new TokenSet([token({ id: 'blue' })])) as Record<string, any>;
    expect(colorCss(exported.blue.$value)).toBe('#1d4ed8');
    expect(colorCss({ colorSpace: 'srgb', components: [hex('1d'), 0, 1] })).toBe('#1d00ff');
    expect(colorCss({ colorSpace: 'srgb', components: [0, 0, 0], alpha: 0.2 })).toBe(
      'rgb(0 0 0 / 0.2)',
    );
    expect(colorCss({ colorSpace: 'srgb', components: [0.6, 0.7, 1] })).toBe(
      'color(srgb 0.6 0.7 1)',
    );
  });

  it("names each modifier's default context as the import read it, never overwriting it", () => {
    const t = token({ id: 'c', modes: { 'brand:default': { value: '#000000', ref: null } } });
    const read = (defaults?: Map<string, string>) =>
      (toDtcgDocument(new TokenSet([t]), defaults) as Record<string, any>).resolver.modifiers.brand;
    expect(read(new Map([['brand', 'a']]))).toEqual({
      contexts: { a: [], default: [{ $ref: 'brand/default.json' }] },
      default: 'a',
    });
    expect(read().default).toBe('default-base');
    expect(read().contexts.default).toEqual([{ $ref: 'brand/default.json' }]);
  });

  it('imports the legacy JSON export (Style Dictionary 4 form: values as CSS text)', () => {
    const tokens = [
      token({ id: 'blue', group: 'color' }),
      token({ id: 'gap', category: 'spacing', value_default: '-4px' }),
      token({ id: 'fast', category: 'motion', value_default: '120ms' }),
      token({ id: 'card', category: 'shadow', value_default: '0 1px 2px rgb(0 0 0 / 0.2)' }),
      token({ id: 'bold', category: 'font-weight', value_default: '700' }),
    ];
    const legacy = JSON.parse(exportTokens(tokens, 'json'));
    const { problems, steps } = plan(legacy);
    expect(problems).toEqual([]);
    const values = Object.fromEntries(steps.map((s) => [s.path, s.columns!.value_default]));
    expect(values).toMatchObject({ 'color.blue': '#1d4ed8', gap: '-4px', fast: '120ms' });
  });
});

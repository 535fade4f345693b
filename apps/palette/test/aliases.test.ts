import postcss from 'postcss';
import { useService } from '@platform/testing';
import { paletteUnderTest } from './helpers';

const svc = useService(paletteUnderTest);
beforeEach(async () => {
  await svc.create('/tokens', {
    name: '500',
    category: 'color',
    value: '#3b82f6',
    group: 'color.blue',
  });
  await svc.create('/tokens', {
    name: 'gray-900',
    category: 'color',
    value: '#111827',
    dark: '#f9fafb',
  });
});

/** name -> value of the declarations of `selector` in the CSS export. */
async function cssOf(selector: string) {
  const found: Record<string, string> = {};
  const css = (await svc.get('/export?format=css')).body.data.output as string;
  postcss.parse(css).walkRules((rule) => {
    if (rule.selector === selector) rule.walkDecls((d) => void (found[d.prop] = d.value));
  });
  return found;
}

describe('aliases', () => {
  it('stores {path} as a reference, resolved in every export', async () => {
    const primary = await svc.create('/tokens', {
      name: 'primary',
      category: 'color',
      value: '{color.blue.500}',
      dark: '{gray-900}',
      group: 'semantic',
    });
    expect(primary).toMatchObject({
      value: { default: '{color.blue.500}', dark: '{gray-900}' },
      aliases: { default: { name: '500' }, dark: { name: 'gray-900' } },
    });
    expect((await cssOf(':root'))['--primary']).toBe('var(--500)');
    expect((await cssOf('[data-theme="dark"]'))['--primary']).toBe('var(--gray-900)');
    const json = JSON.parse((await svc.get('/export?format=json')).body.data.output);
    expect(json.semantic.primary).toMatchObject({
      $type: 'color',
      $value: '{color.blue.500}',
      $extensions: { 'com.platform.palette': { dark: '{gray-900}' } },
    });
    const tw4 = (await svc.get('/export?format=tailwind4')).body.data.output as string;
    expect(tw4).toContain('--color-primary: var(--color-500);');
    expect((await svc.get('/tokens/500')).body.data.usage.tokens).toEqual([
      { id: primary.id, name: 'primary' },
    ]);
  });

  it('finds a token named like the path, as var(--color-blue-500)', async () => {
    await svc.create('/tokens', { name: 'color-blue-500', category: 'color', value: '#00f' });
    const link = await svc.create('/tokens', {
      name: 'link',
      category: 'color',
      value: '{color.blue.500}',
    });
    // The path color.blue.500 is the token 500 in group color.blue: a path comes first.
    expect(link.aliases.default.name).toBe('500');
    await svc.del('/tokens/link');
    await svc.put('/tokens/500', { group: null });
    const named = await svc.create('/tokens', {
      name: 'link',
      category: 'color',
      value: '{color.blue.500}',
    });
    expect(named.aliases.default.name).toBe('color-blue-500');
    expect(named.value.default).toBe('{color-blue-500}');
    expect((await cssOf(':root'))['--link']).toBe('var(--color-blue-500)');
  });

  it('refuses dangling references, other types and cycles, with the reason', async () => {
    const cases: Array<[object, string]> = [
      [
        { name: 'a', category: 'color', value: '{color.blue.600}' },
        'value refers to a token that does not exist: {color.blue.600}',
      ],
      [
        { name: 'a', category: 'spacing', value: '{color.blue.500}' },
        'value refers to 500, a color token (color); a spacing token can only refer to a dimension token',
      ],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await svc.post('/tokens', body);
      expect({ status, message: answer.error.message }).toEqual({ status: 400, message });
    }
    await svc.create('/tokens', { name: 'a', category: 'color', value: '{color.blue.500}' });
    await svc.create('/tokens', { name: 'b', category: 'color', value: '{a}' });
    const cycle = await svc.put('/tokens/500', { value: '{b}' });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toBe(
      'value would make a cycle of aliases: 500 -> b -> a -> 500',
    );
    const self = await svc.put('/tokens/a', { dark: '{a}' });
    expect(self.body.error.message).toBe('dark would make a cycle of aliases: a -> a');
    expect((await svc.get('/tokens/500')).body.data.value.default).toBe('#3b82f6');
  });

  it('protects a referenced token from deletion and follows its renames', async () => {
    await svc.create('/tokens', { name: 'primary', category: 'color', value: '{color.blue.500}' });
    await svc.create('/components', { name: 'Button', tokens: ['500'] });
    const refused = await svc.del('/tokens/500');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'Token 500 is used by components: Button; tokens: primary',
    );
    await svc.put('/tokens/500', { name: 'blue-500', group: 'palette' });
    expect((await svc.get('/tokens/primary')).body.data.value.default).toBe('{palette.blue-500}');
    expect((await cssOf(':root'))['--primary']).toBe('var(--blue-500)');
    const typeChange = await svc.put('/tokens/blue-500', { category: 'spacing', value: '1px' });
    expect(typeChange.status).toBe(409);
    expect(typeChange.body.error.message).toMatch(
      /^Token blue-500 is referred to by tokens: primary/,
    );
    await svc.put('/tokens/primary', { value: '#000' });
    await svc.put('/components/button', { tokens: [] });
    expect((await svc.del('/tokens/blue-500')).status).toBe(200);
  });
});

describe('contrast with aliases and alpha', () => {
  it('composites a translucent background over its backdrop before the ratio', async () => {
    await svc.create('/tokens', { name: 'white', category: 'color', value: '#fff' });
    await svc.create('/tokens', { name: 'scrim', category: 'color', value: 'rgb(0 0 0 / 0.5)' });
    await svc.create('/tokens', { name: 'ink', category: 'color', value: '{gray-900}' });
    const ratio = async (q: string) => (await svc.get(`/tokens/contrast?${q}`)).body.data;
    // Half-black over white is mid grey (sRGB 0.5): 3.98 against white, not black's 21.
    expect((await ratio('foreground=white&background=scrim')).light.ratio).toBe(3.98);
    // Over a black backdrop (dark mode's default) the scrim is black.
    expect((await ratio('foreground=white&background=scrim')).dark.ratio).toBe(21);
    expect((await ratio('foreground=white&background=scrim&backdrop=gray-900')).light.ratio).toBe(
      19.57,
    );
    // Aliases are followed, in each mode.
    const inked = await ratio('foreground=ink&background=white');
    expect(inked.light.ratio).toBe(17.74);
    expect(inked.dark.ratio).toBeCloseTo(1.05, 2);
  });

  it('says when a color can only be computed by a page', async () => {
    await svc.create('/tokens', { name: 'here', category: 'color', value: 'currentColor' });
    const { status, body } = await svc.get('/tokens/contrast?foreground=here&background=gray-900');
    expect(status).toBe(400);
    expect(body.error.message).toBe(
      'Token here has a light color the contrast cannot be computed from: currentColor',
    );
  });
});

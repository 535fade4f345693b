import type { Page } from 'playwright-core';
import { expectCleanPage, webTest } from './harness';

const web = webTest();

/** The computed background of a swatch (`<name> in light|dark`). */
const swatch = (page: Page, name: string) =>
  page
    .getByRole('img', { name, exact: true })
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

/** The message shown beside the field labelled `label`. */
const fieldError = (page: Page, label: RegExp) =>
  page.locator('.ui-field', { has: page.getByLabel(label) }).locator('.ui-field-error');

beforeAll(async () => {
  const palette = web.client.palette;
  const token = (body: Parameters<typeof palette.createToken>[0]['body']) =>
    palette.createToken({ body });
  await token({
    name: 'brand-red',
    category: 'color',
    value: '#ff0000',
    dark: '#00ff00',
    group: 'brand',
  });
  await token({ name: 'link', category: 'color', value: '{brand.brand-red}' });
  await token({ name: 'ink', category: 'color', value: '#111827', dark: '#e7eaf0' });
  await token({ name: 'paper', category: 'color', value: '#ffffff', dark: '#0f1218' });
  await token({ name: 'gap-md', category: 'spacing', value: '12px' });
  await token({ name: 'corner-lg', category: 'radius', value: '12px' });
  await token({ name: 'lift', category: 'shadow', value: '0 2px 6px rgb(0 0 0 / 0.2)' });
  await token({ name: 'body', category: 'typography', value: '16px' });
  await token({ name: 'quick', category: 'motion', value: '120ms' });
  await palette.createComponent({
    body: {
      name: 'Button',
      status: 'stable',
      category: 'actions',
      props: [{ name: 'size', type: '"sm" | "md"' }],
      variants: [{ name: 'primary', description: 'The main action' }],
      tokens: ['brand-red'],
    },
  });
  await palette.createPattern({ body: { name: 'Sign-up form', components: ['Button'] } });
  await palette.createStandard({
    body: { name: 'Naming', guidelines: ['Use kebab case', 'Say what, not how'] },
  });
  await palette.createRule({
    body: {
      name: 'Text contrast',
      severity: 'serious',
      wcag: '1.4.3',
      level: 'AA',
      components: ['Button'],
    },
  });
}, 30_000);

describe('the design system UI', () => {
  it('shows every token in the gallery, light and dark side by side', async () => {
    const opened = await web.open('/palette/gallery');
    const { page } = opened;
    await page.getByRole('heading', { name: 'color' }).waitFor();
    expect(await swatch(page, 'brand-red in light')).toBe('rgb(255, 0, 0)');
    expect(await swatch(page, 'brand-red in dark')).toBe('rgb(0, 255, 0)');
    // An alias shows its target's value in each mode.
    expect(await swatch(page, 'link in light')).toBe('rgb(255, 0, 0)');
    expect(await swatch(page, 'link in dark')).toBe('rgb(0, 255, 0)');
    expect(await swatch(page, 'paper in dark')).toBe('rgb(15, 18, 24)');
    for (const name of ['gap-md', 'corner-lg', 'lift', 'quick'])
      await page.getByRole('img', { name: `${name} in dark` }).waitFor();
    await page.getByRole('heading', { name: 'brand' }).waitFor();
    await expectCleanPage(opened, 'palette-gallery');

    await page.getByLabel('Category').selectOption('radius');
    await page.getByRole('img', { name: 'corner-lg in light' }).waitFor();
    await expect(page.getByRole('img', { name: 'brand-red in light' }).count()).resolves.toBe(0);
  });

  it('checks the contrast of two tokens with the API’s ratio', async () => {
    const expected = await web.client.palette.tokenContrast({
      query: { foreground: 'ink', background: 'paper' },
    });
    const opened = await web.open('/palette/contrast');
    const { page } = opened;
    await page.getByLabel('Foreground').selectOption('ink');
    await page.getByLabel('Background').selectOption('paper');
    const light = page.getByLabel('Light contrast ratio');
    await light.waitFor();
    expect(await light.textContent()).toBe(`${expected.light.ratio}:1`);
    expect(await page.getByLabel('Dark contrast ratio').textContent()).toBe(
      `${expected.dark.ratio}:1`,
    );
    const aaa = page.getByRole('table', { name: 'WCAG 2 levels in light mode' });
    await expect(aaa.getByRole('row', { name: /^AAA/ }).textContent()).resolves.toBe('AAAPassPass');
    await expectCleanPage(opened, 'palette-contrast');
  });

  it('creates, edits and deletes a token through the forms', async () => {
    const opened = await web.open('/palette/tokens/new');
    const { page } = opened;
    await expectCleanPage(opened, 'palette-token-new');
    await page.getByLabel('Name').fill('sea');
    await page.getByLabel('Category').selectOption('color');
    await page.getByLabel(/^Value/).fill('#0000ff');
    await page.getByLabel('Dark value').fill('#8888ff');
    await page.getByLabel('Group').fill('brand.sea');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: 'sea' }).waitFor();
    expect(await swatch(page, 'sea in dark')).toBe('rgb(136, 136, 255)');
    await expect(web.client.palette.getToken({ path: { idOrName: 'sea' } })).resolves.toMatchObject(
      { value: { default: '#0000ff', dark: '#8888ff' }, group: 'brand.sea', cssVariable: '--sea' },
    );
    await expectCleanPage(opened, 'palette-token-detail');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit sea' }).waitFor();
    await expectCleanPage(opened, 'palette-token-edit');
    await page.getByLabel('Name').fill('ocean');
    await page.getByLabel('Dark value').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'ocean' }).waitFor();
    // The variable was derived: it follows the rename.
    await expect(
      web.client.palette.getToken({ path: { idOrName: 'ocean' } }),
    ).resolves.toMatchObject({ value: { default: '#0000ff', dark: null }, cssVariable: '--ocean' });

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    await expect(
      web.client.palette.getToken({ path: { idOrName: 'ocean' } }),
    ).rejects.toMatchObject({ status: 404 });
    await page.getByRole('link', { name: 'brand-red' }).waitFor();
    await expectCleanPage(opened, 'palette-tokens');
  });

  it('shows the API’s message beside an invalid value, and NOT_FOUND on a missing token', async () => {
    const opened = await web.open('/palette/tokens/new');
    const { page } = opened;
    await page.getByLabel('Name').fill('broken');
    await page.getByLabel(/^Value/).fill('not-a-colour');
    await page.getByRole('button', { name: 'Create' }).click();
    const error = fieldError(page, /^Value/);
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^value is not .*not-a-colour/);
    await expect(page.getByLabel(/^Value/).getAttribute('aria-invalid')).resolves.toBe('true');

    const missing = await web.open('/palette/tokens/no-such-token');
    const message = await web.client.palette.getToken({ path: { idOrName: 'no-such-token' } }).then(
      () => 'found',
      (e: Error) => e.message,
    );
    expect(message).toMatch(/not found/i);
    await missing.page.getByRole('alert').filter({ hasText: message }).waitFor();
    await expectCleanPage(missing, 'palette-token-missing', {
      allow: [/^404 GET \/api\/v1\/palette\/tokens\/no-such-token$/, /not found/i],
    });
  });
});

describe('the design system’s records', () => {
  it('shows a component’s props, adds an example, and has its forms', async () => {
    const opened = await web.open('/palette/components?status=stable');
    const { page } = opened;
    await page.getByRole('link', { name: 'Button' }).waitFor();
    await expectCleanPage(opened, 'palette-components');
    await page.getByRole('link', { name: 'Button' }).click();
    await page.getByRole('cell', { name: 'size' }).waitFor();
    await page.getByLabel('Example name').fill('Primary');
    await page.getByLabel(/^Code/).fill('<Button variant="primary">Save</Button>');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByLabel('Example Primary').waitFor();
    const button = await web.client.palette.getComponent({ path: { idOrName: 'Button' } });
    expect(button.examples).toMatchObject([{ name: 'Primary' }]);
    await page.getByRole('link', { name: 'brand-red' }).waitFor();
    await expectCleanPage(opened, 'palette-component-detail');
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByLabel(/^Tokens/).inputValue()).resolves.toBe('brand-red');
    await expectCleanPage(opened, 'palette-component-edit');
    await page.goto('/palette/components/new');
    await page.getByRole('heading', { name: 'New component' }).waitFor();
    await expectCleanPage(opened, 'palette-component-new');
  });

  it('shows a pattern’s steps and appends one', async () => {
    const opened = await web.open('/palette/patterns');
    const { page } = opened;
    await page.getByRole('link', { name: 'Sign-up form' }).click();
    await page.getByLabel('Step title').fill('Fill in the form');
    await page.getByLabel('Component (name)').fill('Button');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Fill in the form · Button' }).waitFor();
    await expectCleanPage(opened, 'palette-pattern-detail');
    await page.getByRole('link', { name: 'All patterns' }).click();
    await page.getByRole('link', { name: 'Sign-up form' }).waitFor();
    await expectCleanPage(opened, 'palette-patterns');
    await page.getByRole('link', { name: 'New pattern' }).click();
    await expectCleanPage(opened, 'palette-pattern-new');
  });

  it('creates a standard with its guidelines, and shows the accessibility rules', async () => {
    const opened = await web.open('/palette/standards/new');
    const { page } = opened;
    await expectCleanPage(opened, 'palette-standard-new');
    await page.getByLabel('Name').fill('Writing');
    await page.getByLabel('Guidelines').fill('Short sentences, plain words\nSay what happens');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Say what happens' }).waitFor();
    await expect(
      web.client.palette.getStandard({ path: { idOrName: 'Writing' } }),
    ).resolves.toMatchObject({ guidelines: ['Short sentences, plain words', 'Say what happens'] });
    await expectCleanPage(opened, 'palette-standard-detail');
    await page.getByRole('link', { name: 'All standards' }).click();
    await page.getByRole('link', { name: 'Naming' }).waitFor();
    await expectCleanPage(opened, 'palette-standards');

    await page.goto('/palette/rules?severity=serious');
    await page.getByRole('link', { name: 'Text contrast' }).click();
    await page.getByRole('link', { name: 'Button' }).waitFor();
    await expectCleanPage(opened, 'palette-rule-detail');
    await page.getByRole('link', { name: 'All accessibility rules' }).click();
    await expectCleanPage(opened, 'palette-rules');
    await page.getByRole('link', { name: 'New accessibility rule' }).click();
    await expectCleanPage(opened, 'palette-rule-new');
  });

  it('searches every kind, and exports the tokens in each format with a copy button', async () => {
    const opened = await web.open('/palette/search');
    const { page } = opened;
    await page.getByLabel('Search for').fill('brand');
    await page.getByRole('link', { name: 'brand-red' }).waitFor();
    await page.getByLabel('Kind').selectOption('component');
    await page.getByText('Nothing matches “brand”.').waitFor();
    await page.getByLabel('Search for').fill('button');
    await page.getByRole('link', { name: 'Button' }).waitFor();
    await expectCleanPage(opened, 'palette-search');

    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/palette/export');
    const code = page.getByLabel('The css export');
    await code.waitFor();
    expect(await code.textContent()).toContain('--brand-red: #ff0000;');
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(':root');
    await page.getByRole('button', { name: 'Tailwind 4' }).click();
    expect(await page.getByLabel('The tailwind4 export').textContent()).toContain('@theme');
    await page.getByRole('button', { name: 'JSON (DTCG)' }).click();
    const json = JSON.parse((await page.getByLabel('The json export').textContent())!);
    expect(json.brand['brand-red']).toMatchObject({ $type: 'color', $value: '#ff0000' });
    await expectCleanPage(opened, 'palette-export');
  });

  it('imports DTCG files after a dry run, and shows a mode’s values in the gallery', async () => {
    const opened = await web.open('/palette/import');
    const { page } = opened; // a resolver with a brand modifier, and the two files it names
    const files = {
      'brand.resolver.json': {
        version: '2025.10',
        sets: { base: { sources: [{ $ref: 'tokens/base.json' }] } },
        modifiers: {
          brand: { contexts: { a: [], b: [{ $ref: 'x/brand-b.json' }] }, default: 'a' },
        },
        resolutionOrder: [{ $ref: '#/sets/base' }, { $ref: '#/modifiers/brand' }],
      },
      'base.json': {
        imported: {
          accent: { $type: 'color', $value: { colorSpace: 'srgb', components: [0, 0, 1] } },
          gap: { $type: 'dimension', $value: { value: 6, unit: 'px' } },
        },
      },
      'brand-b.json': {
        imported: { accent: { $value: { colorSpace: 'srgb', components: [1, 0.5, 0] } } },
      },
    };
    await page.getByLabel('Token files, or a resolver and the files it names').setInputFiles(
      Object.entries(files).map(([name, doc]) => ({
        name,
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(doc)),
      })),
    );
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('status').filter({ hasText: 'Would be: 2 created' }).waitFor();
    await page.getByRole('row', { name: /imported\.gap created dimension/ }).waitFor();
    expect(await web.client.palette.listTokens({ query: { group: 'imported' } })).toEqual([]);
    await expectCleanPage(opened, 'palette-import');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText(/^2 created.*modes: brand:b/).waitFor();
    const [accent, gap] = await web.client.palette.listTokens({ query: { group: 'imported' } });
    expect([accent.modes['brand:b'], gap.category]).toEqual(['color(srgb 1 0.5 0)', 'dimension']);
    await page.goto('/palette/gallery?category=color');
    await page.getByLabel('Mode').selectOption('brand:b');
    await page.getByText('color(srgb 1 0.5 0)').waitFor();
  });
});

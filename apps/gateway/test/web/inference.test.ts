import { expectCleanPage, webTest } from './harness';

const web = webTest();

/**
 * The mock's answer arrives in one network read: here the page's fetch hands the real stream on
 * one event at a time, 50 ms apart, and every text the streaming reply shows is recorded.
 */
function throttleStreamAndRecord() {
  const original = window.fetch;
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    if (!String(input).includes('/chat/stream') || !response.ok) return response;
    const events = (await response.text()).split(/(?<=\n\n)/);
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const event of events) {
          controller.enqueue(new TextEncoder().encode(event));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        controller.close();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const shown: string[] = [];
  Object.assign(window, { shown });
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid=streaming]')?.textContent;
    if (text && shown.at(-1) !== text) shown.push(text);
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

describe('the inference playground', () => {
  it('streams a reply from the mock provider, then its usage', async () => {
    const webPage = await web.open('/inference/playground');
    const { page } = webPage;
    await page.addInitScript(throttleStreamAndRecord);
    await page.reload();
    await page.getByLabel('Model name').fill('mock-1');
    await page.getByLabel('System prompt').fill('Answer briefly.');
    await page.getByLabel('Message').fill('hello stream');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Mock answer to: hello stream').waitFor();
    await log.getByText(/\d+ input tokens · 5 output tokens/).waitFor();
    // The reply grew in parts, each a beginning of the whole, before it was complete.
    const final = 'Mock answer to: hello stream';
    const shown = (await page.evaluate('window.shown')) as string[];
    const partial = shown.filter((text) => text !== '…' && text !== final);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    for (const text of partial) expect(final.startsWith(text)).toBe(true);
    await expect(page.getByLabel('Message').inputValue()).resolves.toBe('');
    await expectCleanPage(webPage, 'inference-playground');

    // The second turn carries the first: a conversation.
    await page.getByLabel('Message').fill('and again');
    await page.getByRole('button', { name: 'Send' }).click();
    await log.getByText('Mock answer to: and again').waitFor();
    // Its usage comes with the stream's last event, just after the text.
    await log
      .getByText(/output tokens/)
      .nth(1)
      .waitFor();
    await expect(log.getByText(/output tokens/).count()).resolves.toBe(2);
  });

  it('shows a refusal beside its field, and stops a stream that does not end', async () => {
    const webPage = await web.open('/inference/playground');
    const { page } = webPage;
    await page.getByLabel('Message').fill('no model');
    await page.getByRole('button', { name: 'Send' }).click();
    const field = page.locator('.ui-field', { has: page.getByLabel('Model name') });
    await field.getByText('model is required').waitFor();
    await expect(page.getByLabel('Model name').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectCleanPage(webPage, 'inference-playground-refused', {
      allow: [/^400 POST \/api\/v1\/inference\/chat\/stream$/, /^model is required/],
    });

    await page.route('**/api/v1/inference/chat/stream', () => undefined); // never answers
    await page.getByLabel('Model name').fill('mock-1');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('log').getByText('Stopped').waitFor();
    await page.getByRole('button', { name: 'Clear' }).waitFor();
  });
});

describe('inference usage', () => {
  it('shows the calls made: totals, charts, a table row and its detail page', async () => {
    await web.client.inference.chat({
      body: { model: 'mock-1', messages: [{ role: 'user', content: 'counted' }] },
    });
    const webPage = await web.open('/inference/usage');
    const { page } = webPage;
    await page.getByRole('img', { name: 'Requests and errors over time' }).waitFor();
    await page
      .getByRole('img', { name: 'Tokens by model' })
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    const summary = page.getByLabel('Summary');
    const usage = await web.client.inference.getUsage({});
    await summary.getByText(String(usage.summary.totalRequests), { exact: true }).first().waitFor();
    const rows = page.getByRole('row').filter({ hasText: 'mock-1' });
    await expect(rows.count()).resolves.toBe(usage.requests.length);
    await expectCleanPage(webPage, 'inference-usage');

    await page.getByRole('combobox', { name: /^Provider/ }).selectOption('mock');
    await page.waitForURL(/provider=mock/);
    await rows.first().getByRole('link').first().click();
    await page.getByRole('heading', { name: /request to mock-1/ }).waitFor();
    await page.getByText(usage.requests[0].id).waitFor();
    await expectCleanPage(webPage, 'inference-request');
  });

  it('says NOT_FOUND for a request that does not exist', async () => {
    const webPage = await web.open('/inference/requests/no-such-request');
    await webPage.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(webPage, 'inference-request-missing', {
      allow: [/^404 GET \/api\/v1\/inference\/requests\/no-such-request$/, /not found/i],
    });
  });
});

describe('inference keys', () => {
  it("shows a key's usage and saves its limits, refusing a bad one beside its field", async () => {
    const key = await web.client.passport.createKey({
      body: { name: 'web-limited', scopes: ['inference:invoke'] },
    });
    const webPage = await web.open('/inference/keys');
    const { page } = webPage;
    await page.getByRole('searchbox', { name: 'Key id or name' }).fill('web-limited');
    const usage = page.getByLabel('Key usage');
    await usage.getByText('No budget').waitFor();
    await expectCleanPage(webPage, 'inference-keys');

    const form = page.getByRole('form', { name: 'Limits' });
    await form.getByLabel('Requests per minute').fill('0');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText(/rpm/).first().waitFor();
    expect((await web.client.inference.getKeyUsage({ path: { keyId: key.id } })).limits).toBeNull();

    await form.getByLabel('Requests per minute').fill('30');
    await form.getByLabel('Budget (micro-dollars)').fill('2000000');
    await form.getByLabel('Budget period').selectOption('day');
    await form.getByLabel('Allowed models').fill('mock-1, mock-2');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await usage.getByText(/of \$2(\.00)? until/).waitFor();
    expect(
      (await web.client.inference.getKeyUsage({ path: { keyId: 'web-limited' } })).limits,
    ).toMatchObject({
      rpm: 30,
      budgetMicros: 2_000_000,
      period: 'day',
      models: ['mock-1', 'mock-2'],
    });
  });
});

describe('inference providers and models', () => {
  it('creates, edits and deletes a provider through the forms', async () => {
    const webPage = await web.open('/inference/providers');
    const { page } = webPage;
    await page.getByRole('cell', { name: 'mock', exact: true }).first().waitFor();
    await expectCleanPage(webPage, 'inference-providers');

    await page.getByRole('link', { name: 'New provider' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('OpenAI main');
    await page.getByLabel('Type').selectOption('openai');
    await page.getByRole('textbox', { name: 'Default model' }).fill('gpt-4o-mini');
    await page.getByLabel('Key variable').fill('MY_SECRET');
    await expectCleanPage(webPage, 'inference-provider-new');
    await page.getByRole('button', { name: 'Create' }).click();
    const envField = page.locator('.ui-field', { has: page.getByLabel('Key variable') });
    await envField.getByText(/envVar must be one of/).waitFor();
    await expectCleanPage(webPage, 'inference-provider-refused', {
      allow: [/^400 POST \/api\/v1\/inference\/providers$/, /^envVar must be one of/],
    });

    await page.getByLabel('Key variable').fill('OPENAI_API_KEY');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'OpenAI main' }).waitFor();
    await page.getByText('The official API').waitFor();
    await expectCleanPage(webPage, 'inference-provider');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Default model' }).fill('gpt-4.1');
    await expectCleanPage(webPage, 'inference-provider-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'OpenAI main', exact: true }).waitFor();
    await page.getByText('gpt-4.1', { exact: true }).waitFor();
    const saved = await web.client.inference.getProvider({ path: { idOrName: 'OpenAI main' } });
    expect(saved).toMatchObject({
      type: 'openai',
      defaultModel: 'gpt-4.1',
      envVar: 'OPENAI_API_KEY',
    });

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Providers' }).waitFor();
    await expect(
      web.client.inference.getProvider({ path: { idOrName: saved.id } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('syncs the models and filters them by provider', async () => {
    const webPage = await web.open('/inference/models');
    const { page } = webPage;
    await page.getByRole('button', { name: 'Sync models' }).click();
    await page.getByText(/mock: 4 models/).waitFor();
    await page.getByRole('cell', { name: 'mock-1', exact: true }).waitFor();
    await page.getByRole('combobox', { name: /^Provider/ }).selectOption('mock');
    await page.waitForURL(/provider=mock/);
    await expect(page.getByRole('row').count()).resolves.toBe(5);
    await expectCleanPage(webPage, 'inference-models');

    // Synced models are offered in the playground, and the provider's page lists them.
    const playground = await web.open('/inference/playground');
    await playground.page
      .getByRole('option', { name: 'mock-1 (mock)' })
      .waitFor({ state: 'attached' });
    const detail = await web.open('/inference/providers/mock');
    await detail.page.getByRole('cell', { name: 'mock-embed-1' }).waitFor();
    await expectCleanPage(detail, 'inference-provider-mock');
  });
});

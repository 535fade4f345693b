import { createClient, httpTransport, type PlatformClient } from '@platform/client';
import {
  launchBrowser,
  listen,
  openPage,
  screenshot,
  seriousViolations,
  type WebPage,
} from '@platform/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { gatewayUnderTest, type GatewayUnderTest } from '../helpers';

/**
 * The whole platform for a web UI's browser test: the gateway (every service in-process, the
 * built web UIs) listening on a free port of a fresh database, a typed client to seed it with,
 * and headless Chromium. One per test file: `const web = webTest()` at the top; `env` may be a
 * function, for values known only once a peer started (an identity provider's address).
 */
export function webTest(
  env: Record<string, string> | (() => Promise<Record<string, string>>) = {},
) {
  const state = {} as {
    gw: GatewayUnderTest;
    url: string;
    client: PlatformClient;
    browser: Browser;
  };
  const opened: WebPage[] = [];
  beforeAll(async () => {
    state.gw = await gatewayUnderTest(typeof env === 'function' ? await env() : env);
    state.url = await listen(state.gw.app);
    state.client = createClient(httpTransport(state.url));
    state.browser = await launchBrowser();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await state.browser?.close();
    await state.gw?.close();
  });
  return {
    get url() {
      return state.url;
    },
    get client() {
      return state.client;
    },
    get gw() {
      return state.gw;
    },
    /** A fresh page at another base URL (the platform as http://localhost:<port>, say). */
    async openAt(baseUrl: string): Promise<WebPage> {
      const web = await openPage(state.browser, baseUrl);
      opened.push(web);
      return web;
    },
    /** A fresh page (light unless asked) at `path`, once its main heading is there. */
    async open(path: string, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<WebPage> {
      const web = await openPage(state.browser, state.url, options);
      opened.push(web);
      await web.page.goto(path);
      await web.page.locator('main h1').first().waitFor();
      return web;
    },
  };
}

/**
 * What every page must be: no console errors, no failed requests, no 4xx answer from the API and
 * no alert shown (except those `allow` names: a test's intended validation failure or missing
 * id, matched against `<status> <method> <path>` and against the alert's text), no serious or
 * critical axe violation, in light and in dark; a screenshot of each saved as an artifact.
 */
export async function expectCleanPage(
  web: WebPage,
  name: string,
  { allow = [] }: { allow?: RegExp[] } = {},
) {
  const { page } = web;
  await page.waitForLoadState('networkidle');
  const allowed = (text: string) => allow.some((pattern) => pattern.test(text));
  // Each 4xx answer is judged once: a later check of the same page sees only the newer ones.
  expect(web.clientErrors.splice(0).filter((e) => !allowed(e))).toEqual([]);
  const alerts = await page.locator('[role=alert]:visible').allInnerTexts();
  expect(alerts.filter((text) => !allowed(text))).toEqual([]);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    expect({ theme, violations: await seriousViolations(page) }).toEqual({ theme, violations: [] });
    await screenshot(page, `${name}-${theme}`);
  }
  expect(web.errors).toEqual([]);
  expect(web.failures).toEqual([]);
}

/** Waits until the page's table shows `count` rows of a settled answer (not the previous page's). */
export async function expectRows(page: Page, count: number) {
  await page.waitForFunction(
    (n) =>
      !document.querySelector('[aria-busy="true"]') &&
      document.querySelectorAll('main tbody tr').length === n,
    count,
  );
}

/** The theme the shell's selector sets (`data-theme` on <html>). */
export async function setTheme(page: Page, theme: 'light' | 'dark' | 'system') {
  await page.getByLabel('Theme').selectOption(theme);
}

/** Waits until a settled table's body rows read `texts` (each row's cells joined by a space). */
export async function expectRowTexts(table: Locator, texts: string[]) {
  const el = await table.elementHandle();
  await table
    .page()
    .waitForFunction(
      ({ el, texts }) => {
        const rows = [...el!.querySelectorAll('tbody tr')].map((tr) =>
          [...tr.querySelectorAll('td')].map((td) => td.textContent).join(' '),
        );
        return !el!.closest('[aria-busy]') && JSON.stringify(rows) === JSON.stringify(texts);
      },
      { el, texts },
    )
    .catch(() => undefined); // the comparison below says what differs
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent).join(' ')),
    );
  expect(rows).toEqual(texts);
}

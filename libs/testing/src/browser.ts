import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumBinary } from './chromium.js';

/**
 * Headless Chromium for the web UIs' tests: the one CHROMIUM_PATH names, a system Chromium or
 * Chrome, or else the build the `@sparticuz/chromium` package ships (see chromium.ts). The flags
 * keep it off the network it cannot reach here (update checks, sync, QUIC) and out of a sandbox
 * root cannot have.
 */
export async function launchBrowser(): Promise<Browser> {
  const binary = await chromiumBinary();
  // Loaded here, not with the module: most test files import this library and never start a
  // browser, and Playwright took 0.4 s of each one's loading.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: binary.executablePath,
    env: { ...process.env, ...binary.env } as Record<string, string>,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where screenshots go: `test-artifacts/screenshots` at the repository root (kept by CI). */
export const ARTIFACTS = resolve(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');

export interface WebPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions of the page so far; a page that loads well has none. */
  errors: string[];
  /** Requests that failed or answered 5xx. */
  failures: string[];
  /**
   * The 4xx answers to API calls (`/api/...`), as `<status> <method> <path>` (path with its
   * query): a page that loads well asks for nothing that is not there and sends nothing invalid;
   * a test that meant one (a validation failure, a missing id) says so.
   */
  clientErrors: string[];
  close(): Promise<void>;
}

/** A fresh context (no cookies, no storage) and page at `baseUrl`, its errors collected. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<WebPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: 1280, height: 900 },
    // No transitions: axe reads colours as they are, not half-way to a new theme.
    reducedMotion: 'reduce',
  });
  // A missing element fails its step with a readable message, well before the test's own timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  const failures: string[] = [];
  const clientErrors: string[] = [];
  page.on('console', (message) => {
    // Chromium's own line for an HTTP error answer: 4xx answers are counted in `clientErrors`,
    // 5xx ones in `failures`.
    const network = /^Failed to load resource: the server responded with a status of 4\d\d/;
    if (message.type() === 'error' && !network.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // A navigation or a poll cut short by the next page is not a failure of the page.
    if (!reason.includes('ERR_ABORTED')) failures.push(`${request.url()}: ${reason}`);
  });
  page.on('response', (response) => {
    const status = response.status();
    if (status >= 500) failures.push(`${response.url()}: HTTP ${status}`);
    const url = new URL(response.url());
    if (status >= 400 && status < 500 && url.pathname.startsWith('/api/'))
      clientErrors.push(`${status} ${response.request().method()} ${url.pathname}${url.search}`);
  });
  return { page, context, errors, failures, clientErrors, close: () => context.close() };
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core run in the page: the violations of serious or critical impact (WCAG A and AA rules
 * and axe's best practices), each with the elements it found, for a readable failure.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated (not a <script>): the platform's Content-Security-Policy rightly refuses inline ones.
  // Once per document: a page the app navigated itself still has it (550 KB to parse each time).
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
  }
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run();
    return result.violations as {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[] }[];
    }[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
}

/** A full-page screenshot as `test-artifacts/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

import { Readable } from 'node:stream';
import { request } from 'undici';
import { billing } from '@platform/billing';
import {
  deadUrl,
  eventually,
  listen,
  serviceUnderTest,
  sleep,
  type ServiceUnderTest,
} from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// Uploads through the gateway to a proxied service stream as they arrive: never held in the
// gateway (larger than PROXY_BODY_LIMIT, slower than PROXY_TIMEOUT_MS), and still served
// in-process when the service is not there.

const HEADER = 'BilledCost,BillingCurrency,ChargePeriodStart,ResourceId';
const rows = (count: number, prefix = 'res') =>
  Array.from(
    { length: count },
    (_, i) => `0.01,USD,2026-01-02T00:00:00Z,${prefix}-${i}-${'x'.repeat(900)}`,
  ).join('\n');

let gw: GatewayUnderTest;
let base: string;
let standalone: ServiceUnderTest | undefined;
afterEach(async () => {
  await standalone?.close();
  standalone = undefined;
  await gw.close();
});

async function start(billingUrl?: string) {
  let url = billingUrl;
  if (!url) {
    standalone = await serviceUnderTest(billing);
    url = await listen(standalone.app);
  }
  gw = await gatewayUnderTest({
    BILLING_PROXY_URL: url,
    PROXY_BODY_LIMIT: '65536',
    PROXY_TIMEOUT_MS: '1000',
  });
  base = await listen(gw.app);
}

async function upload(body: string | AsyncIterable<string>) {
  const res = await request(`${base}/api/v1/billing/sync/focus?from=2026-01-01&to=2026-01-31`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: typeof body === 'string' ? body : Readable.from(body),
  });
  return {
    status: res.statusCode,
    servedBy: res.headers['x-served-by'],
    body: (await res.body.json()) as { data: { id: string; rowsWritten: number } },
  };
}

/** The sync job once its merge has completed. */
async function completed(app: ServiceUnderTest['app'] | GatewayUnderTest['app'], id: string) {
  const job = async () =>
    (await app.inject({ method: 'GET', url: `/api/v1/billing/sync/jobs/${id}` })).json().data;
  await eventually(async () => (await job()).status === 'completed', {
    timeout: 20_000,
    what: 'the merge',
  });
  return job();
}

it('streams an upload larger than PROXY_BODY_LIMIT to the service', async () => {
  await start();
  const csv = `${HEADER}\n${rows(800)}\n`;
  expect(csv.length).toBeGreaterThan(10 * 65536);
  const res = await upload(csv);
  expect(res.status).toBe(202);
  expect(res.servedBy).toBeUndefined();
  expect(res.body.data.rowsWritten).toBe(800);
  expect((await completed(standalone!.app, res.body.data.id)).itemsCreated).toBe(800);
});

it('streams an upload slower than PROXY_TIMEOUT_MS, which counts from the end of the body', async () => {
  await start();
  async function* slowly() {
    yield `${HEADER}\n`;
    for (let i = 0; i < 5; i++) {
      await sleep(400);
      yield `${rows(10, `res-${i}`)}\n`;
    }
  }
  const res = await upload(slowly());
  expect(res.status).toBe(202);
  expect(res.body.data.rowsWritten).toBe(50);
});

it('serves streamed uploads in-process while the service is not there', async () => {
  await start(await deadUrl());
  // The first one was already on its way to the service when it found it gone: sent again, it
  // goes in-process, as every upload does until the service is tried again.
  const first = await upload(`${HEADER}\n${rows(3)}\n`);
  expect(first.status).toBe(502);
  expect(first.body).toEqual({
    success: false,
    error: {
      code: 'BAD_GATEWAY',
      message: 'The service went away while the upload was sent to it; send it again',
    },
  });
  const again = await upload(`${HEADER}\n${rows(3)}\n`);
  expect(again.status).toBe(202);
  expect(again.servedBy).toBe('in-process-fallback');
  expect((await completed(gw.app, again.body.data.id)).itemsCreated).toBe(3);
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '@platform/testing';
import { billingUnderTest, type Billing } from './helpers';

// The sync tests' shared setup: fake providers speaking their wire formats on local ports, and
// one billing service per test (the hooks below register in each test file that imports this).

export const TOKEN = 'sk-secret-token-1234567890';

/** A local HTTP server answering with `handle`; records each request. */
export async function provider(
  handle: (req: IncomingMessage, url: URL) => { status: number; body: unknown },
) {
  const seen: Array<{ url: URL; headers: IncomingMessage['headers'] }> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push({ url, headers: req.headers });
    const { status, body } = handle(req, url);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** OpenAI's organization costs wire format, two pages. */
export const openaiPages = (cost: number) => (req: IncomingMessage, url: URL) => {
  if (req.headers.authorization !== `Bearer ${TOKEN}`)
    return {
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    };
  const page = url.searchParams.get('page');
  const bucket = (start: number, results: unknown[]) => ({
    object: 'bucket',
    start_time: start,
    end_time: start + 86400,
    results,
  });
  const result = (value: number, lineItem: string) => ({
    object: 'organization.costs.result',
    amount: { value, currency: 'usd' },
    line_item: lineItem,
    project_id: 'proj_1',
  });
  return page === null
    ? {
        status: 200,
        body: {
          object: 'page',
          data: [
            bucket(1767225600, [result(cost, 'gpt-4o, input'), result(0.06, 'gpt-4o, output')]),
          ],
          has_more: true,
          next_page: 'page_2',
        },
      }
    : {
        status: 200,
        body: {
          object: 'page',
          data: [bucket(1767312000, [result(1.1, 'gpt-4o, input')])],
          has_more: false,
          next_page: null,
        },
      };
};

export let svc: Billing;
export let servers: Array<{ close(): Promise<void> }>;
beforeEach(() => {
  servers = [];
});
afterEach(async () => {
  await svc.close();
  await Promise.all(servers.map((s) => s.close()));
});

export async function start(env: Record<string, string>) {
  svc = await billingUnderTest(env);
}
export async function finished(id: string) {
  for (;;) {
    const job = (await svc.get(`/sync/jobs/${id}`)).body.data;
    if (job.status !== 'running') return job;
    await sleep(10);
  }
}
export const sync = async (body: object) => {
  const res = await svc.post('/sync', body);
  expect(res.status).toBe(202);
  expect(res.body.data.status).toBe('running');
  return finished(res.body.data.id);
};

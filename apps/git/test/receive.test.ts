import { createHmac } from 'node:crypto';
import { serviceUnderTest, type Json, type ServiceUnderTest } from '@platform/testing';
import { git } from '../src/index';
import { PREFIX, tempDir } from './helpers';

const SECRET = 'a-webhook-secret-planted-in-tests';
const sign = (body: string, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let svc: ServiceUnderTest;
let data: ReturnType<typeof tempDir>;
beforeAll(async () => {
  data = tempDir('git-receive-');
  svc = await serviceUnderTest(git, {
    env: { GIT_DATA_DIR: data.dir, GIT_WEBHOOK_SECRET: SECRET },
    jobs: false,
  });
});
afterAll(async () => {
  await svc.close();
  data.remove();
});

async function deliver(
  app: ServiceUnderTest['app'],
  body: string,
  headers: Record<string, string>,
) {
  const res = await app.inject({
    method: 'POST',
    url: `${PREFIX}/webhooks/receive`,
    payload: body,
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', ...headers },
  });
  return { status: res.statusCode, body: res.json() as Json };
}
const events = async () =>
  (await svc.app.inject({ url: `${PREFIX}/webhooks/events` })).json().data as Json[];

// Spacing GitHub's way: the signature is over these exact bytes, not a re-serialisation.
const push = '{"ref": "refs/heads/main",  "repository": {"full_name": "acme/widgets"}}';

describe('POST /webhooks/receive', () => {
  it('stores a delivery with a good signature, once, and lists it', async () => {
    const first = await deliver(svc.app, push, {
      'x-hub-signature-256': sign(push),
      'x-github-delivery': 'd-1',
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ deliveryId: 'd-1', event: 'push', duplicate: false });
    const replay = await deliver(svc.app, push, {
      'x-hub-signature-256': sign(push),
      'x-github-delivery': 'd-1',
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ ...first.body.data, duplicate: true });
    const listed = await events();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      deliveryId: 'd-1',
      event: 'push',
      repositoryName: 'acme/widgets',
      repositoryId: null,
      payload: JSON.parse(push),
    });
  });

  it.each([
    ['missing', undefined, /missing/],
    ['made with another secret', sign(push, 'another-secret'), /does not match/],
    ['of another body', sign(`${push} `), /does not match/],
    ['malformed', 'sha256=zz', /does not match/],
  ])('refuses a signature %s with 401 and stores nothing', async (_, signature, message) => {
    const before = (await events()).length;
    const res = await deliver(svc.app, push, {
      ...(signature ? { 'x-hub-signature-256': signature } : {}),
      'x-github-delivery': `bad-${_}`,
    });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(message);
    expect(await events()).toHaveLength(before);
  });

  it('answers a replayed body under a new delivery id as the first delivery (finding 2)', async () => {
    const body = '{"ref": "refs/heads/replayed", "repository": {"full_name": "acme/widgets"}}';
    const first = await deliver(svc.app, body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': 'r-1',
    });
    expect(first.status).toBe(201);
    const before = (await events()).length;
    // The delivery id is not signed: anyone holding one signed delivery can change it.
    const replay = await deliver(svc.app, body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': 'r-1-forged',
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ ...first.body.data, deliveryId: 'r-1', duplicate: true });
    expect(await events()).toHaveLength(before);
  });

  it('stores a signed delivery holding U+0000 and lone surrogates without them (finding 3)', async () => {
    const body =
      '{"action": "a\\u0000b\\u0000", "note": "x\\\\u0000y", "bad": "\\ud800!",' +
      ' "k\\u0000ey": [{"deep": "\\u0000"}], "repository": {"full_name": "acme/\\u0000nul"}}';
    const res = await deliver(svc.app, body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': 'nul-1',
    });
    expect(res.status).toBe(201);
    const stored = (await events()).find((e) => e.deliveryId === 'nul-1') as Json;
    expect(stored).toMatchObject({ action: 'ab', repositoryName: 'acme/nul' });
    expect(stored.payload).toEqual({
      action: 'ab',
      note: 'x\\u0000y', // an escaped backslash, not U+0000: kept as sent
      bad: '\ufffd!',
      key: [{ deep: '' }],
      repository: { full_name: 'acme/nul' },
    });
  });

  it('takes deliveries above the default 1 MiB (GitHub sends up to 25 MB)', async () => {
    const files = Array.from({ length: 3000 }, (_, i) => `src/${i}/${'f'.repeat(1000)}`);
    const body = JSON.stringify({ ref: 'refs/heads/big', commits: [{ added: files }] });
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await deliver(svc.app, body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': 'big-1',
    });
    expect(res.status).toBe(201);
    const stored = (await events()).find((e) => e.deliveryId === 'big-1') as Json;
    expect(stored.payload.commits[0].added).toHaveLength(3000);
  });

  it('refuses a payload nested deeper than any GitHub sends with 400, not a 500', async () => {
    const body = `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await deliver(svc.app, body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': 'deep-1',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/nests deeper than 200 levels/);
  });

  it('answers 409 NOT_CONFIGURED when GIT_WEBHOOK_SECRET is not set', async () => {
    const bare = await serviceUnderTest(git, { env: { GIT_DATA_DIR: data.dir }, jobs: false });
    try {
      const res = await deliver(bare.app, push, {
        'x-hub-signature-256': sign(push),
        'x-github-delivery': 'd-2',
      });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('NOT_CONFIGURED');
      expect(res.body.error.message).toMatch(/GIT_WEBHOOK_SECRET is not set/);
    } finally {
      await bare.close();
    }
  });
});

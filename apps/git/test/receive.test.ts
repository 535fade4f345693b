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

  it('answers 503 when GIT_WEBHOOK_SECRET is not set', async () => {
    const bare = await serviceUnderTest(git, { env: { GIT_DATA_DIR: data.dir }, jobs: false });
    try {
      const res = await deliver(bare.app, push, {
        'x-hub-signature-256': sign(push),
        'x-github-delivery': 'd-2',
      });
      expect(res.status).toBe(503);
      expect(res.body.error.message).toMatch(/GIT_WEBHOOK_SECRET is not set/);
    } finally {
      await bare.close();
    }
  });
});

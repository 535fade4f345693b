import { createHmac, timingSafeEqual } from 'node:crypto';
import { sleep } from '@platform/testing';
import { channelWithApp, httpPeer, startService, type PeerRequest } from './helpers';

const SECRET = 'whsec-0123456789abcdef';

/** What a receiver does: recompute the HMAC over `<timestamp>.<body>`, compare, check the age. */
function verified({ headers, body }: PeerRequest) {
  const timestamp = String(headers['x-platform-timestamp']);
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
  const given = String(headers['x-platform-signature']);
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return (
    given.length === expected.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(expected)) &&
    fresh
  );
}

async function webhookService(
  answer: Parameters<typeof httpPeer>[0],
  env: Record<string, string> = {},
) {
  const peer = await httpPeer(answer);
  const client = await startService({ env: { CHANNEL_HOOK_SECRET: SECRET, ...env } });
  const config = { url: `${peer.url}/hooks/in`, secret: 'env:CHANNEL_HOOK_SECRET' };
  await channelWithApp(client, { name: 'hook', provider: 'webhook', config }, { target: 'orders' });
  const send = async (headers: Record<string, string> = {}) => {
    const res = await client.call(
      'POST',
      '/apps/app1/send',
      { channelId: 'hook', subject: 'New order', text: 'Order 7', metadata: { order: 7 } },
      headers,
    );
    expect(res.status).toBe(202);
    return client.settled('app1', res.body.data.delivery.id);
  };
  return { peer, client, send };
}

describe('webhook', () => {
  it('POSTs a signed JSON body; the answer’s id becomes the provider message id', async () => {
    const { peer, send } = await webhookService((req) =>
      verified(req)
        ? { status: 200, body: '{"id":"evt_1"}' }
        : { status: 401, body: 'bad signature' },
    );
    const sent = await send({ 'x-request-id': 'req-abc' });
    expect(sent).toMatchObject({ status: 'sent', providerMessageId: 'evt_1', attemptCount: 1 });
    const [request] = peer.requests;
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'x-platform-delivery': sent.id,
      'x-request-id': 'req-abc',
    });
    expect(JSON.parse(request.body)).toEqual({
      id: sent.id,
      appId: 'app1',
      channelId: sent.channelId,
      target: 'orders',
      subject: 'New order',
      text: 'Order 7',
      html: null,
      metadata: { order: 7 },
      createdAt: sent.createdAt,
    });
    // A body changed in transit no longer matches its signature.
    expect(verified({ ...request, body: request.body.replace('Order 7', 'Order 8') })).toBe(false);
  });

  it('retries a 500 and is sent by the next attempt; the answers’ text is never kept', async () => {
    const { peer, send } = await webhookService((_req, n) =>
      n === 1 ? { status: 500, body: 'oops' } : { status: 202, body: 'queued' },
    );
    const sent = await send();
    expect(sent).toMatchObject({ status: 'sent', providerMessageId: 'HTTP 202', attemptCount: 2 });
    expect(sent.attempts).toEqual([
      expect.objectContaining({
        number: 1,
        outcome: 'retry',
        error: expect.stringMatching(/^127\.0\.0\.1:\d+ answered 500$/),
      }),
      expect.objectContaining({ number: 2, outcome: 'sent', error: null }),
    ]);
    expect(peer.requests.map((r) => r.headers['x-platform-delivery'])).toEqual([sent.id, sent.id]);
  });

  it('does not retry a 400', async () => {
    const { peer, send } = await webhookService(() => ({ status: 400, body: 'unknown order' }));
    const failed = await send();
    expect(failed).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      error: expect.stringMatching(/answered 400$/),
    });
    await sleep(200);
    expect(peer.requests).toHaveLength(1);
  });

  it('gives up after COMMUNICATION_MAX_ATTEMPTS transient failures', async () => {
    const { peer, send } = await webhookService(() => ({ status: 503 }), {
      COMMUNICATION_MAX_ATTEMPTS: '3',
    });
    const failed = await send();
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 3 });
    expect(failed.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'retry',
      'retry',
      'failed',
    ]);
    expect(peer.requests).toHaveLength(3);
  });

  it('times out a receiver that does not answer, and tries again', async () => {
    const { send } = await webhookService((_req, n) => (n === 1 ? null : { status: 200 }), {
      COMMUNICATION_TIMEOUT_MS: '300',
    });
    const sent = await send();
    expect(sent).toMatchObject({ status: 'sent', providerMessageId: 'HTTP 200' });
    expect(sent.attempts[0]).toMatchObject({
      outcome: 'retry',
      error: expect.stringMatching(/did not answer within 300 ms$/),
    });
  });

  it('does not follow a redirect', async () => {
    const { peer, send } = await webhookService(() => ({
      status: 302,
      headers: { location: 'http://169.254.169.254/' },
    }));
    const failed = await send();
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 1 });
    expect(failed.error).toMatch(/answered 302, a redirect, which is not followed$/);
    expect(peer.requests).toHaveLength(1);
  });
});

describe('slack', () => {
  it('posts { text } to the incoming webhook and reads Slack’s ok', async () => {
    const peer = await httpPeer(() => ({ status: 200, body: 'ok' }));
    const client = await startService({
      env: { CHANNEL_SLACK_URL: `${peer.url}/services/T1/B1/xyz` },
    });
    await channelWithApp(client, {
      name: 'chat',
      provider: 'slack',
      config: { webhookUrl: 'env:CHANNEL_SLACK_URL' },
    });
    const res = await client.call('POST', '/apps/app1/send', {
      channelId: 'chat',
      subject: 'Deploy',
      text: 'v2 is live',
    });
    expect(res.body.data).toMatchObject({ provider: 'slack', live: true });
    const sent = await client.settled('app1', res.body.data.delivery.id);
    expect(sent).toMatchObject({ status: 'sent', providerMessageId: 'ok' });
    expect(JSON.parse(peer.requests[0].body)).toEqual({ text: '*Deploy*\nv2 is live' });
  });

  it('fails on Slack’s 404 channel_not_found, retries its 500 rollup_error', async () => {
    const peer = await httpPeer((req) =>
      req.body.includes('gone')
        ? { status: 404, body: 'channel_not_found' }
        : {
            status: peer.requests.length === 1 ? 500 : 200,
            body: peer.requests.length === 1 ? 'rollup_error' : 'ok',
          },
    );
    const client = await startService({ env: { CHANNEL_SLACK_URL: peer.url } });
    await channelWithApp(client, {
      name: 'chat',
      provider: 'slack',
      config: { webhookUrl: 'env:CHANNEL_SLACK_URL' },
    });
    const send = async (text: string) => {
      const res = await client.call('POST', '/apps/app1/send', { channelId: 'chat', text });
      return client.settled('app1', res.body.data.delivery.id);
    };
    expect(await send('hello')).toMatchObject({ status: 'sent', attemptCount: 2 });
    expect(await send('gone')).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      error: expect.stringMatching(/answered 404$/),
    });
  });
});

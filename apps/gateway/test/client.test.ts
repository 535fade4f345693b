import {
  ConnectionError,
  PlatformError,
  createClient,
  httpTransport,
  injectTransport,
} from '@platform/client';
import { deadUrl, listen } from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

let gw: GatewayUnderTest;
beforeEach(async () => {
  gw = await gatewayUnderTest();
});
afterEach(() => gw.close());

describe.each([
  ['over HTTP', async () => httpTransport(await listen(gw.app))],
  ['in-process', async () => injectTransport(gw.app)],
])('the typed client %s', (_how, makeTransport) => {
  it('tracks, lists and reports events', async () => {
    const client = createClient(await makeTransport());
    const event = await client.pulse.track({
      name: 'signup',
      userId: 'u1',
      properties: { plan: 'pro' },
    });
    expect(event).toMatchObject({ name: 'signup', userId: 'u1', properties: { plan: 'pro' } });
    expect(
      await client.pulse.trackBatch([{ name: 'view' }, { name: 'view', id: event.id }]),
    ).toEqual({ ingested: 1, duplicates: 1 });
    expect((await client.pulse.listEvents({ userId: 'u1' })).map((e) => e.id)).toEqual([event.id]);
    expect(await client.pulse.getEvent(event.id)).toEqual(event);
    expect(await client.pulse.topEvents({ limit: 1 })).toEqual([{ name: 'signup', count: 1 }]);
    expect((await client.gateway.health()).status).toBe('ok');
  });

  it('throws the envelope error with its code and status', async () => {
    const client = createClient(await makeTransport());
    const error = await client.pulse.getEvent('missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      message: 'Event not found: missing',
    });
    await expect(client.pulse.track({ name: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

it('says when the gateway cannot be reached', async () => {
  const client = createClient(httpTransport(await deadUrl()));
  await expect(client.gateway.health()).rejects.toBeInstanceOf(ConnectionError);
});

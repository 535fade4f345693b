import { AUTH_ENV, CALLERS, identityHeaders, useService } from '@platform/testing';
import { ledgerUnderTest } from './helpers';

// The services' audit outboxes deliver here (libs/core/src/audit): each row's id recorded once,
// whatever the redeliveries; only platform services may record changes.

const svc = useService(() =>
  ledgerUnderTest({ env: { ...AUTH_ENV, LEDGER_RETENTION_INTERVAL_MS: '0' } }),
);

const change = (id: string) => ({
  id,
  action: 'catalog.createService',
  actor: 'ann@example.com',
  actorKind: 'user',
  resource: `svc-${id}`,
  service: 'catalog',
  outcome: 'succeeded',
  statusCode: 201,
  method: 'POST',
  route: '/api/v1/catalog/services',
  requestId: `req-${id}`,
  timestamp: new Date().toISOString(),
});

const record = async (events: object[], who: Parameters<typeof identityHeaders>[0]) =>
  svc.app.inject({
    method: 'POST',
    url: '/api/v1/ledger/changes',
    headers: await identityHeaders(who),
    payload: { events },
  });

it('appends each change once, in order, however often it is delivered', async () => {
  const catalog = { kind: 'service' as const, name: 'catalog' };
  const first = await record([change('c1'), change('c2')], catalog);
  expect(first.json().data).toEqual({ received: 2, appended: 2 });
  const again = await record([change('c1'), change('c2'), change('c3'), change('c3')], catalog);
  expect(again.json().data).toEqual({ received: 4, appended: 1 });
  const events = await svc.app.inject({
    url: '/api/v1/ledger/events?action=catalog.createService',
    headers: await identityHeaders(CALLERS.admin),
  });
  const rows = events.json().data as Array<{ id: string; seq: number; metadata: object }>;
  expect(rows.map((r) => r.id).sort()).toEqual(['c1', 'c2', 'c3']);
  expect(rows.find((r) => r.id === 'c1')?.metadata).toEqual({
    outcome: 'succeeded',
    actorKind: 'user',
    method: 'POST',
    route: '/api/v1/catalog/services',
    statusCode: 201,
    requestId: 'req-c1',
  });
});

it('refuses changes from anyone but a platform service, admins included', async () => {
  const res = await record([change('x1')], CALLERS.admin);
  expect(res.statusCode).toBe(403);
  expect(res.json().error.message).toMatch(/Only platform services record changes/);
  expect(
    (await record([{ ...change('x2'), outcome: 'maybe' }], { kind: 'service', name: 'catalog' }))
      .statusCode,
  ).toBe(400);
});

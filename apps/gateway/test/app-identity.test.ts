import { AUTH_ENV, jsonApiAs, person, useService } from '@platform/testing';
import { gatewayUnderTest } from './helpers';

// An app's backend acts as the app, for whoever published it, with at most their role now
// (issue 32): demoting the publisher to viewer takes its writes away at once.
const gw = useService(() => gatewayUnderTest({ ...AUTH_ENV, AUTH_ADMINS: 'root@example.com' }), {
  scope: 'all',
});

const ADMIN = person('root@example.com', 'admin');
const BACKEND = `import { runWorkflow } from '@stage/compute';
export default { async fetch(request, env) { return Response.json(await runWorkflow(env, 'audit', {}).catch((e) => ({ code: e.code, message: e.message }))); } };`; // prettier-ignore
const WORKFLOWS = JSON.stringify({
  version: 1,
  workflows: { audit: { steps: [{ 'ledger.log': { action: 'app.ran' }, as: 'audit' }, { respond: { id: '{{ steps.audit.id }}' } }] } }, // prettier-ignore
});

/** An app published by `email` (a member then), its backend logging to the audit trail. */
async function publishedBy(email: string, name: string) {
  const stage = jsonApiAs(gw.app, '/api/v1/stage', person(email, 'member'));
  const { id } = (await stage.post('/sessions', {})).body.data;
  await stage.post(`/sessions/${id}/push`, { files: { '/app/api/index.js': BACKEND, '/app/platform.workflows.json': WORKFLOWS } }); // prettier-ignore
  const app = await stage.post('/apps', { sessionId: id, name });
  expect(app.status).toBe(201);
  return app.body.data.sid as string;
}

it("acts with its publisher's role now and its own scopes, decided by the service it calls", async () => {
  const kept = await publishedBy('kept@example.com', 'kept-app');
  const demoted = await publishedBy('demoted@example.com', 'demoted-app');
  const admin = jsonApiAs(gw.app, '/api/v1/passport', ADMIN);
  for (const email of ['kept@example.com', 'demoted@example.com'])
    expect((await admin.put(`/users/${email}/role`, { role: 'member' })).status).toBe(200);
  expect((await admin.put('/users/demoted@example.com/role', { role: 'viewer' })).status).toBe(200);
  // One person, by email (what the sandbox asks).
  const [one] = (await admin.get('/users?email=DEMOTED@example.com')).body.data;
  expect(one).toMatchObject({ email: 'demoted@example.com', role: 'viewer' });
  const viewer = jsonApiAs(gw.app, '/stage', person('reader@example.com', 'viewer'));
  const ok = (await viewer.get(`/${kept}/api/`)).body;
  expect(ok).toMatchObject({ status: 'completed', result: { id: expect.any(String) } });
  const refused = (await viewer.get(`/${demoted}/api/`)).body;
  expect(refused).toMatchObject({ status: 'failed' });
  expect(JSON.stringify(refused)).toContain(
    'may not create ledger.event: it needs the role member',
  );
  // And by the scopes it declares: without ledger:write, no audit event.
  const publisher = jsonApiAs(gw.app, '/api/v1/stage', person('kept@example.com', 'member'));
  expect((await publisher.patch(`/apps/${kept}`, { scopes: ['inference:invoke'] })).status).toBe(200); // prettier-ignore
  const scoped = (await viewer.get(`/${kept}/api/`)).body;
  expect(JSON.stringify(scoped)).toContain('it needs the scope ledger:write');
});

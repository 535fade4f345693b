import { createApp, Nullable, ok, Type } from '../src/index';

// The platform's rule: what a request sends that the route does not declare is refused, never
// dropped without a word (issue 12).

const app = createApp();
const Body = Type.Object({
  name: Type.String(),
  owner: Type.Optional(Nullable(Type.Object({ id: Type.String() }))),
  links: Type.Optional(Type.Array(Type.Object({ url: Type.String() }))),
  annotations: Type.Optional(Type.Record(Type.String(), Type.String())),
  extra: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
app.post('/things', { schema: { body: Body } }, async (request) => ok(request.body));
app.get(
  '/things',
  { schema: { querystring: Type.Object({ limit: Type.Optional(Type.Integer()) }) } },
  async (request) => ok(request.query),
);
app.get('/things/:id', { schema: { params: Type.Object({ id: Type.String() }) } }, async () =>
  ok(1),
);
app.get('/served/*', { schema: { hide: true } }, async (request) => ok(request.query));
afterAll(() => app.close());

const post = async (payload: object) => {
  const res = await app.inject({ method: 'POST', url: '/things', payload });
  return { status: res.statusCode, body: res.json() };
};
const refused = (message: string) => ({
  status: 400,
  body: { success: false, error: { code: 'BAD_REQUEST', message } },
});

it('refuses a body field the route does not declare, at any depth', async () => {
  expect(await post({ name: 'a', lifecycle: 'production' })).toEqual(
    refused('body has an unknown field: lifecycle'),
  );
  expect(await post({ name: 'a', owner: { id: 'x', email: 'e' } })).toMatchObject({ status: 400 });
  expect(await post({ name: 'a', links: [{ url: 'u', title: 't' }] })).toEqual(
    refused('links[0] has an unknown field: title'),
  );
});

it('keeps what free-form maps hold, and everything declared', async () => {
  const body = {
    name: 'a',
    owner: null,
    links: [{ url: 'u' }],
    annotations: { 'backstage.io/source-location': 'url:x' },
    extra: { anything: [1, 2] },
  };
  expect(await post(body)).toEqual({ status: 200, body: { success: true, data: body } });
});

it('refuses an unknown query parameter (a typo is not silently the default)', async () => {
  const res = await app.inject({ method: 'GET', url: '/things?limt=5' });
  expect(res.statusCode).toBe(400);
  expect(res.json().error.message).toBe('querystring has an unknown field: limt');
  const fine = await app.inject({ method: 'GET', url: '/things?limit=5' });
  expect(fine.json()).toEqual({ success: true, data: { limit: 5 } });
});

it('refuses any query parameter where an operation declares none; hidden routes pass theirs on', async () => {
  const res = await app.inject({ method: 'GET', url: '/things/a?foo=x' });
  expect(res.statusCode).toBe(400);
  expect(res.json().error.message).toBe('querystring has an unknown field: foo');
  expect((await app.inject({ method: 'GET', url: '/things/a' })).statusCode).toBe(200);
  const served = await app.inject({ method: 'GET', url: '/served/page?v=2&utm=x' });
  expect(served.json()).toEqual({ success: true, data: { v: '2', utm: 'x' } });
});

// Validators and serializers are compiled once per schema object and shared by every app: a
// schema used for a body and for a query string keeps each part's rules (bodies are not coerced,
// query strings are), and a response schema serializes each app's answers alike.
it('keeps each part its rules when apps and routes share one schema', async () => {
  const Shared = Type.Object({ n: Type.Integer() });
  const Answer = Type.Object({ n: Type.Integer() });
  const apps = [createApp(), createApp()];
  for (const one of apps) {
    one.post('/n', { schema: { body: Shared, response: { 200: Answer } } }, async (request) => ({
      ...request.body,
      secret: 'never sent',
    }));
    one.get('/n', { schema: { querystring: Shared } }, async (request) => ok(request.query));
  }
  try {
    for (const one of apps) {
      const asText = await one.inject({ method: 'POST', url: '/n', payload: { n: '5' } });
      expect(asText.statusCode).toBe(400);
      const posted = await one.inject({ method: 'POST', url: '/n', payload: { n: 5 } });
      expect(posted.json()).toEqual({ n: 5 });
      const queried = await one.inject({ method: 'GET', url: '/n?n=5' });
      expect(queried.json()).toEqual({ success: true, data: { n: 5 } });
      const extra = await one.inject({ method: 'GET', url: '/n?n=5&m=1' });
      expect(extra.json().error.message).toBe('querystring has an unknown field: m');
    }
  } finally {
    await Promise.all(apps.map((one) => one.close()));
  }
});

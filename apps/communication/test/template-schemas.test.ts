import { TemplateEngine } from '../src/domain/templates/render';
import { channelWithApp, smtpPeer, startService, type Client } from './helpers';

// Issue 41 review: what a template's schema may hold (no regular expressions, no outside $ref,
// each compiled on its own, a bounded cache), the source limit, one address per categorised mail.
// Split from notifications.test.ts (300 lines).

const WELCOME = {
  name: 'welcome',
  category: 'onboarding',
  schema: { type: 'object' },
  fallbackLocale: 'en',
  locales: { en: { subject: 'Welcome', text: 'Hello {{ name }}' } },
};

const send = (client: Client, body: object) => client.call('POST', '/apps/app1/send', body);

let client: Client;
let smtp: Awaited<ReturnType<typeof smtpPeer>>;
beforeEach(async () => {
  smtp = await smtpPeer();
  client = await startService();
  await channelWithApp(client, { name: 'log', provider: 'log' }, { target: 'ann@example.com' });
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(client, { name: 'mail', provider: 'smtp', config });
});

it('refuses regular expressions and outside $ref in schemas; each schema compiled on its own', async () => {
  const create = (name: string, schema: object) =>
    client.call('POST', '/apps/app1/templates', { ...WELCOME, name, schema });
  const refused: Array<[object, string]> = [
    [{ properties: { code: { type: 'string', pattern: '^(a+)+$' } } }, 'schema.properties.code.pattern'], // prettier-ignore
    [{ patternProperties: { '^x': {} } }, 'schema.patternProperties'],
    [{ $defs: { re: { type: 'string', format: 'regex' } } }, 'schema.$defs.re.format'],
    [{ anyOf: [{ $ref: 'https://example.com/other.json' }] }, 'schema.anyOf[0].$ref'],
  ];
  for (const [schema, path] of refused) {
    const res = await create('bad', { type: 'object', ...schema });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`${path}: `);
  }
  // Two templates with one $id (and a property named pattern: a name, not the keyword), each
  // sent twice: every compile has an Ajv of its own.
  const schema = {
    $id: 'https://example.com/welcome.json',
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, pattern: { $ref: '#/$defs/text' } },
    $defs: { text: { type: 'string' } },
  };
  expect((await create('first', schema)).status).toBe(201);
  expect((await create('second', schema)).status).toBe(201);
  for (const template of ['first', 'second', 'first', 'second']) {
    const res = await send(client, { channelId: 'log', template, data: { name: 'x' } });
    expect(res.status).toBe(202);
  }
  const bad = await send(client, { channelId: 'log', template: 'first', data: { name: 'x', pattern: 1 } }); // prettier-ignore
  expect(bad.body.error.message).toContain('data.pattern must be a string');
  // The longest html the API takes parses (the parse limit is the schema's maxLength).
  const long = `<p>${'a'.repeat(300_000)}</p>`;
  const res = await client.call('POST', '/apps/app1/templates', {
    ...WELCOME,
    name: 'long',
    locales: { en: { subject: 's', text: 't', html: long } },
  });
  expect(res.status).toBe(201);
});

it('keeps a bounded number of compiled schemas, the least recently used dropped', () => {
  const engine = new TemplateEngine(2);
  const schema = { type: 'object', required: ['n'] };
  for (const key of ['t1:1', 't2:1', 't1:1', 't3:1'])
    expect(() => engine.validate(key, schema, { n: 1 }, key)).not.toThrow();
  expect(engine.cached).toBe(2);
  expect(() => engine.validate('t4:1', schema, {}, 't4')).toThrow('data.n is required');
  expect(engine.cached).toBe(2);
});

it('refuses several addresses for a message of a category; a plain one may have several', async () => {
  const mail = { channelId: 'mail', subject: 'News', text: 'Read this', category: 'news' };
  const two = 'bea@example.com, cid@example.com';
  const many = await send(client, { ...mail, to: two });
  expect(many.status).toBe(400);
  expect(many.body.error.message).toContain('to names several addresses');
  const { category: _, ...plain } = mail;
  const res = await send(client, { ...plain, to: two });
  expect(res.status).toBe(202);
  expect((await client.settled('app1', res.body.data.delivery.id)).status).toBe('sent');
  expect(smtp.mails[0].to).toEqual(['bea@example.com', 'cid@example.com']);
});

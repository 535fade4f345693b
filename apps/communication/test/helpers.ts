import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { signIdentity, type Env, type MountOptions } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import { eventually, serviceUnderTest, type Json, type ServiceUnderTest } from '@platform/testing';
import { communication } from '../src/index';

export const SESSION_SECRET = 'test-session-secret-of-at-least-32-characters';
/** Authentication on: literal secrets can be stored (encrypted). */
export const AUTH_ENV = {
  OIDC_CLIENT_ID: 'communication-tests',
  OIDC_CLIENT_SECRET: 'oidc-client-secret',
  SESSION_SECRET,
};
/** A certificate for 127.0.0.1 and localhost (self-signed, valid until 2126) and its key. */
export const TLS_CERT = readFileSync(join(__dirname, 'fixtures/smtp-tls.crt'), 'utf8');
const TLS_KEY = readFileSync(join(__dirname, 'fixtures/smtp-tls.key'), 'utf8');

/** The CHANNEL_ variables the tests name, bound to the hosts the tests send them to. */
export const BINDINGS = {
  CHANNEL_HOOK_SECRET_DESTINATION: '127.0.0.1, localhost, 169.254.169.254, example.com',
  CHANNEL_SMTP_PASS_DESTINATION: '127.0.0.1, smtp.example.com',
  CHANNEL_SLACK_URL_DESTINATION: '127.0.0.1',
};

/**
 * Retries in milliseconds rather than seconds; the local peers (127.0.0.1) allowed as
 * destinations; the test SMTP certificate trusted; the tests' variables bound.
 */
export const FAST_ENV = {
  ...BINDINGS,
  COMMUNICATION_RETRY_MS: '20',
  COMMUNICATION_TIMEOUT_MS: '2000',
  COMMUNICATION_ALLOW_PRIVATE_TARGETS: 'true',
  COMMUNICATION_SMTP_CA: TLS_CERT,
};

const cleanups: Array<() => Promise<unknown> | void> = [];
/** Runs after each test (registered by every test file that imports this one). */
export async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}
afterEach(cleanUp);

export interface Client {
  svc: ServiceUnderTest;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Json; headers: Record<string, unknown> }>;
  /** The delivery once it is no longer `accepted` (sent or failed). */
  settled(appId: string, id: string, timeoutMs?: number): Promise<Json>;
}

/** The service on a fresh database (or `db`), closed after the test; `auth` turns authentication on. */
export async function startService(
  options: { env?: Env; auth?: boolean; jobs?: MountOptions['jobs']; db?: PlatformDatabase } = {},
): Promise<Client> {
  const env = { ...FAST_ENV, ...(options.auth ? AUTH_ENV : {}), ...options.env };
  const svc = await serviceUnderTest(communication, {
    env,
    db: options.db,
    jobs: options.jobs ?? { pollMs: 20 },
  });
  cleanups.push(() => (options.db ? svc.app.close() : svc.close()));
  const identity = options.auth
    ? await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' })
    : undefined;
  const call: Client['call'] = async (method, url, body, headers = {}) => {
    const res = await svc.app.inject({
      method,
      url: `${communication.prefix}${url}`,
      headers: { ...(identity ? { 'x-platform-identity': identity } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const settled: Client['settled'] = (appId, id, timeoutMs = 10_000) =>
    eventually(
      async () => {
        const { body } = await call('GET', `/apps/${appId}/deliveries/${id}`);
        if (body.data.status === 'accepted')
          throw new Error(`delivery ${id} still accepted: ${JSON.stringify(body)}`);
        return body.data;
      },
      { timeout: timeoutMs, what: `delivery ${id} sent or failed` },
    );
  return { svc, call, settled };
}

/** A channel and an app's registration on it, made through the API. */
export async function channelWithApp(
  client: Client,
  channel: { name: string; provider: string; config?: object },
  registration: { appId?: string; target?: string } = {},
) {
  const created = await client.call('POST', '/channels', channel);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const appId = registration.appId ?? 'app1';
  const reg = await client.call('POST', `/apps/${appId}/channels`, {
    channelId: created.body.data.id,
    ...(registration.target === undefined ? {} : { target: registration.target }),
  });
  if (reg.status !== 201) throw new Error(JSON.stringify(reg.body));
  return { channel: created.body.data, registration: reg.body.data, appId };
}

/**
 * An smtp channel `mail` on `smtp`, logging in as `mailer` with `pass`, app1 registered on it for
 * dev@example.com, and `message` sent through it: the send's answer.
 */
export async function sendMail(
  client: Client,
  smtp: { host: string; port: number },
  pass: string,
  message: object,
) {
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com', user: 'mailer', pass };
  await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com' },
  );
  return client.call('POST', '/apps/app1/send', message);
}

export interface PeerRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server (a webhook receiver, Slack): `answer` decides each reply; all requests kept. */
export async function httpPeer(
  answer: (
    req: PeerRequest,
    n: number,
  ) => { status: number; body?: string; headers?: object } | null,
) {
  const requests: PeerRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      const reply = answer(received, requests.length);
      if (!reply) return; // never answers
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

export interface Mail {
  from: string;
  to: string[];
  raw: string;
  user?: string;
  tls: boolean;
}

/**
 * A local SMTP server; `options` add AUTH (then STARTTLS is offered, with the test certificate,
 * and AUTH only over TLS) or refusals. Every accepted message kept, with whether it came over TLS.
 */
export async function smtpPeer(options: Partial<SMTPServerOptions> = {}) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: options.onAuth ? [] : ['STARTTLS', 'AUTH'],
    authOptional: !options.onAuth,
    allowInsecureAuth: false,
    key: TLS_KEY,
    cert: TLS_CERT,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8').replace(/=\r\n/g, ''),
          user: session.user as string | undefined,
          tls: session.secure,
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.server.address() as AddressInfo;
  return { host: '127.0.0.1', port, mails };
}

/** An SMTP error with a reply code, as smtp-server sends it. */
export const smtpReply = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

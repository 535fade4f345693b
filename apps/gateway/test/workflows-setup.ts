import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { cookieBrowser, listen, startOpenIdProvider, type Json } from '@platform/testing';
import { startFakeSheets } from './workflows-fake-sheets';
import { gatewayUnderTest } from './helpers';

// The whole platform in process (stage through the gateway), authentication on and ada signed
// in (a real OpenID provider); a second OAuth provider acting as "google", which ada connects
// (her delegated token, from the identity service); a local Google Sheets v4 server that
// answers only that token; a local SMTP server keeping every mail.

export type WorkflowWorld = Awaited<ReturnType<typeof workflowWorld>>;

export async function workflowWorld() {
  const [idp, oauth] = await Promise.all([startOpenIdProvider(), startOpenIdProvider()]);
  let token = '';
  const sheets = await startFakeSheets(() => token);
  const mails: Array<{ to: string[]; raw: string }> = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        mails.push({ to, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const gw = await gatewayUnderTest({
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'the-oidc-client-secret-of-the-workflow-tests',
    SESSION_SECRET: 'the-session-secret-of-the-workflow-tests!',
    AUTH_ADMINS: 'ada@example.com',
    OAUTH_GOOGLE_SECRET: 'google-client-secret',
    COMMUNICATION_ALLOW_PRIVATE_TARGETS: 'true',
    STAGE_SHEETS_PROVIDER: 'google',
    STAGE_GOOGLE_SHEETS_URL: sheets.url,
  });
  const base = await listen(gw.app);
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada' });
  const ada = cookieBrowser();

  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await ada.request(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const run = res.headers.get('x-workflow-run');
    return { status: res.status, body: (await res.json()) as Json, run };
  }

  const location = (res: Response) => res.headers.get('location') ?? '';
  const login = await ada.get(`${base}/api/v1/passport/login`);
  expect((await ada.get(location(await ada.get(location(login))))).status).toBe(302);
  const provider = await call('POST', '/api/v1/passport/providers', {
    name: 'google',
    type: 'oauth2',
    clientId: 'google-client',
    clientSecret: 'env:OAUTH_GOOGLE_SECRET',
    authorizeUrl: `${oauth.url}/authorize`,
    tokenUrl: `${oauth.url}/token`,
    scopes: ['https://www.googleapis.com/auth/spreadsheets'],
  });
  expect(provider.status).toBe(201);
  const connect = await ada.get(`${base}/api/v1/passport/providers/google/connect`);
  expect((await ada.get(location(await ada.get(location(connect))))).status).toBe(302);
  token = (await oauth.issued()).at(-1)!.accessToken;

  /** A session holding the workflows (Google scopes, other files), published as `name`. */
  async function publish(
    name: string,
    workflows: object,
    scopes?: string[],
    files: Record<string, string> = {},
  ) {
    const session = (await call('POST', '/api/v1/stage/sessions')).body.data.id as string;
    await call('POST', `/api/v1/stage/sessions/${session}/push`, {
      files: {
        ...files,
        '/app/platform.workflows.json': JSON.stringify({ version: 1, workflows }),
      },
    });
    if (scopes) await call('PUT', `/api/v1/stage/sessions/${session}/google-scopes`, { scopes });
    const app = await call('POST', '/api/v1/stage/apps', { sessionId: session, name });
    expect(app.status).toBe(201);
    return { sid: app.body.data.sid as string, session };
  }

  return {
    base,
    sheets,
    mails,
    smtpPort: (smtp.server.address() as AddressInfo).port,
    call,
    publish,
    run: (sid: string, workflow: string, input: object = {}) =>
      call('POST', `/api/v1/run/${sid}/${workflow}`, { input }),
    token: () => token,
    /** Google answers another token from now on (ada's was revoked), until restored. */
    setToken: (value: string) => (token = value),
    async close() {
      await gw.close();
      await sheets.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await Promise.all([idp.stop(), oauth.stop()]);
    },
  };
}

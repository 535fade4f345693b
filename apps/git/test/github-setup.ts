import { signIdentity, type Identity } from '@platform/core';
import { passport } from '@platform/passport';
import {
  cookieBrowser,
  listen,
  serviceUnderTest,
  startOpenIdProvider,
  type Json,
  type OpenIdProvider,
  type ServiceUnderTest,
} from '@platform/testing';
import { git } from '../src/index';
import { startFakeGithub, type FakeGithub } from './fake-github';
import { PREFIX, tempDir } from './helpers';

// The real identity service (passport) on a port, its sign-in through a real OpenID provider, and
// a second OAuth provider acting as passport's "github" (what a user connects, and what issues
// the delegated token); git on its own with PLATFORM_URL at passport (passport's routes are at
// the same paths as behind the gateway); a fake GitHub REST API the token must reach.
// Requests to git carry the signed identity of the signed-in person, as the gateway forwards it.

const SESSION_SECRET = 'the-session-secret-of-the-git-github-tests!';
export const WEBHOOK_SECRET = 'the-github-webhook-secret-of-the-tests';

export interface GithubWorld {
  idp: OpenIdProvider;
  oauth: OpenIdProvider;
  passport: ServiceUnderTest;
  gitSvc: ServiceUnderTest;
  fake: FakeGithub;
  /** ada's identity as passport's /me gives it (a real session). */
  ada: Identity;
  /** The delegated access token the "github" provider issued to ada. */
  token: () => string;
  /** A JSON call to git as `identity` (default ada). */
  call(method: string, url: string, body?: unknown, identity?: Identity): Promise<Json>;
  close(): Promise<void>;
}

export async function githubWorld(): Promise<GithubWorld> {
  const [idp, oauth] = await Promise.all([startOpenIdProvider(), startOpenIdProvider()]);
  const auth = {
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'the-oidc-client-secret-of-the-git-tests',
    SESSION_SECRET,
  };
  const pass = await serviceUnderTest(passport, {
    env: { ...auth, AUTH_ADMINS: 'ada@example.com', OAUTH_GITHUB_SECRET: 'gh-client-secret' },
    jobs: false,
  });
  const passportUrl = await listen(pass.app);
  let token = '';
  const fake = await startFakeGithub(() => token);
  const data = tempDir('git-github-');
  const gitSvc = await serviceUnderTest(git, {
    env: {
      ...auth,
      PLATFORM_URL: passportUrl,
      GIT_DATA_DIR: data.dir,
      GIT_GITHUB_URLS: `https://ghe.example.com/api/v3, ${fake.url}/`,
      GIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
    jobs: false,
  });

  // ada signs in (passport, the OpenID provider, the callback), then connects "github".
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada' });
  const browser = cookieBrowser();
  const location = (res: Response) => res.headers.get('location') ?? '';
  const login = await browser.get(`${passportUrl}/api/v1/passport/login`);
  const callback = await browser.get(location(await browser.get(location(login))));
  expect(callback.status).toBe(302);
  const made = await browser.request(`${passportUrl}/api/v1/passport/providers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'github',
      type: 'oauth2',
      clientId: 'gh-client',
      clientSecret: 'env:OAUTH_GITHUB_SECRET',
      authorizeUrl: `${oauth.url}/authorize`,
      tokenUrl: `${oauth.url}/token`,
      scopes: ['repo'],
    }),
  });
  expect(made.status).toBe(201);
  const connect = await browser.get(`${passportUrl}/api/v1/passport/providers/github/connect`);
  const connected = await browser.get(location(await browser.get(location(connect))));
  expect(connected.status).toBe(302);
  token = (await oauth.issued()).at(-1)!.accessToken;
  const ada = (await (await browser.get(`${passportUrl}/api/v1/passport/me`)).json())
    .data as Identity;
  expect(ada).toMatchObject({ kind: 'user', email: 'ada@example.com' });

  async function call(method: string, url: string, body?: unknown, identity = ada) {
    const res = await gitSvc.app.inject({
      method: method as 'GET',
      url: `${PREFIX}${url}`,
      headers: { 'x-platform-identity': await signIdentity(SESSION_SECRET, identity) },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() as Json };
  }

  return {
    idp,
    oauth,
    passport: pass,
    gitSvc,
    fake,
    ada,
    token: () => token,
    call,
    async close() {
      await gitSvc.close();
      await pass.close();
      await fake.close();
      await Promise.all([idp.stop(), oauth.stop()]);
      data.remove();
    },
  };
}

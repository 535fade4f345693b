import { signIdentity, type Env, type Identity } from '@platform/core';
import { stageUnderTest, type Stage } from './helpers';

export const SESSION_SECRET = 'the-session-secret-of-the-stage-backend-tests!';
/** Authentication on: requests carry a signed identity, as the gateway forwards them. */
export const AUTH: Env = {
  OIDC_ISSUER: 'https://idp.example.com',
  OIDC_CLIENT_ID: 'platform',
  OIDC_CLIENT_SECRET: 'the-oidc-client-secret',
  SESSION_SECRET,
};
export const ADA: Identity = { kind: 'user', email: 'ada@example.com', name: 'Ada', sessionId: 's1', role: 'member', groups: [] }; // prettier-ignore

export interface Backends {
  s: Stage;
  /** A JSON call to /api/v1/stage as a platform service; answers the data (fails on an error). */
  api(method: 'POST' | 'PATCH', url: string, payload: unknown): Promise<any>;
  /** Publishes `files` as a new app; answers its sid and session. */
  publish(files: Record<string, string>, name?: string): Promise<{ sid: string; session: string }>;
  /** A request to /stage/<sid>/api<path> as `identity` (default ada). */
  call(
    sid: string,
    path: string,
    options?: {
      method?: string;
      body?: string | Buffer;
      headers?: Record<string, string>;
      identity?: Identity | null;
    },
  ): Promise<{
    status: number;
    body: string;
    raw: Buffer;
    json: () => any;
    headers: Record<string, unknown>;
  }>;
  close(): Promise<void>;
}

let names = 0;

export async function backendsUnderTest(env: Env = {}): Promise<Backends> {
  const s = await stageUnderTest({ ...AUTH, ...env });
  const token = new Map<Identity, string>();
  const headersOf = async (identity: Identity | null) => {
    if (identity === null) return {};
    if (!token.has(identity)) token.set(identity, await signIdentity(SESSION_SECRET, identity));
    return { 'x-platform-identity': token.get(identity)! };
  };
  // The JSON API as a platform service calls it.
  const service = await headersOf({ kind: 'service', name: 'tests' });
  const api = async (method: 'POST' | 'PATCH', url: string, payload: unknown) => {
    const res = await s.svc.app.inject({
      method,
      url: `/api/v1/stage${url}`,
      payload: payload as object,
      headers: service,
    });
    expect(res.statusCode).toBeLessThan(300);
    return res.json().data;
  };
  return {
    s,
    api,
    async publish(files, name) {
      const session = (await api('POST', '/sessions', {})).id as string;
      await api('POST', `/sessions/${session}/push`, { files });
      const app = await api('POST', '/apps', { sessionId: session, name: name ?? `be${++names}` });
      return { sid: app.sid as string, session };
    },
    async call(sid, path, options = {}) {
      const res = await s.svc.app.inject({
        method: (options.method ?? 'GET') as 'GET',
        url: `/stage/${sid}/api${path}`,
        headers: {
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
          ...(await headersOf(options.identity === undefined ? ADA : options.identity)),
        },
        ...(options.body !== undefined ? { payload: options.body } : {}),
      });
      return { status: res.statusCode, body: res.body, raw: res.rawPayload, json: () => res.json(), headers: res.headers }; // prettier-ignore
    },
    close: () => s.close(),
  };
}

/** Pushes files to a session. */
export const push = (b: Backends, session: string, files: Record<string, string>) =>
  b.api('POST', `/sessions/${session}/push`, { files });

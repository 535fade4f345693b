import type { Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  identityHeaders,
  jsonApiAs,
  keyCaller,
  person,
  serviceUnderTest,
  type Json,
  type ServiceUnderTest,
} from '@platform/testing';
import stage from '../src/index';

// Access tests (issue 31): the stage service with authentication on, called as each caller.

/** The owner of what the tests make, in team payments (its `groups` claim), like CALLERS.teamMate. */
export const OWNER = person('owner@example.com', 'member', ['payments']);

/** Every caller of an access test; undefined is anonymous. */
export const WHO = {
  anonymous: undefined,
  viewer: CALLERS.viewer,
  stranger: CALLERS.stranger,
  owner: OWNER,
  teamMate: CALLERS.teamMate,
  admin: CALLERS.admin,
  /** The owner's personal keys: read-only, read-write, and of another service only. */
  ownerRead: keyCaller(['stage:read'], { owner: 'owner@example.com' }),
  ownerWrite: keyCaller(['stage:write'], { owner: 'owner@example.com' }),
  ownerCatalog: keyCaller(['catalog:write'], { owner: 'owner@example.com' }),
  /** A team key (a service account) of payments. */
  teamKey: keyCaller(['stage:write'], { owner: null, team: 'payments', name: 'payments-ci' }),
} as const;
export type Who = keyof typeof WHO;

export interface Harness {
  svc: ServiceUnderTest;
  /** JSON calls under `/api/v1/stage` (or `prefix`) as `who`. */
  as(who: Who | Identity | undefined, prefix?: string): ReturnType<typeof jsonApiAs>;
  /** A raw request (a page, a backend) as `who`. */
  raw(
    who: Who,
    method: string,
    url: string,
    payload?: string,
  ): Promise<{ status: number; body: string; json(): Json }>;
  /** A session of the owner (team payments) holding `files`; answers its id. */
  session(files?: Record<string, string>, who?: Who, body?: object): Promise<string>;
  /** The owner's session published as an app (team payments); answers the app. */
  app(files?: Record<string, string>): Promise<Json>;
  /** What the admin reads at `url` (the state after a denied request). */
  adminReads(url: string, prefix?: string): Promise<Json>;
  close(): Promise<void>;
}

let names = 0;

export async function stageWithAuth(env: Record<string, string> = {}): Promise<Harness> {
  const svc = await serviceUnderTest(stage, { env: { ...AUTH_ENV, ...env }, jobs: false });
  const identity = (who: Who | Identity | undefined) => (typeof who === 'string' ? WHO[who] : who);
  const as: Harness['as'] = (who, prefix = stage.prefix) =>
    jsonApiAs(svc.app, prefix, identity(who));
  const h: Harness = {
    svc,
    as,
    async raw(who, method, url, payload) {
      const res = await svc.app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(await identityHeaders(WHO[who])),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
      return { status: res.statusCode, body: res.body, json: () => res.json() };
    },
    async session(files = { '/app/main.ts': 'export const secret = 42;' }, who = 'owner', body) {
      const created = await as(who).post('/sessions', body ?? { team: 'payments' });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      expect((await as(who).post(`/sessions/${id}/push`, { files })).status).toBe(200);
      return id;
    },
    async app(files) {
      const sessionId = await h.session(files);
      const res = await as('owner').post('/apps', {
        sessionId,
        name: `access-${++names}`,
        team: 'payments',
      });
      expect(res.status).toBe(201);
      return res.body.data;
    },
    async adminReads(url, prefix) {
      const res = await as('admin', prefix).get(url);
      return res.body.data ?? res.body;
    },
    close: () => svc.close(),
  };
  return h;
}

/** A 403 naming the resource and what is missing. */
export function expectForbidden(res: { status: number; body: Json }, pattern: RegExp) {
  expect([res.status, res.body?.error?.code]).toEqual([403, 'FORBIDDEN']);
  expect(res.body.error.message).toMatch(pattern);
}

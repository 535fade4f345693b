import type { Env } from '@platform/core';
import { jsonApi, serviceUnderTest, type JsonApi, type ServiceUnderTest } from '@platform/testing';
import stage from '../src/index';
import { labelOf } from '../src/domain/origins';

export interface Stage {
  svc: ServiceUnderTest;
  api: JsonApi;
  studio: JsonApi;
  /** A new session's id. */
  session(): Promise<string>;
  /** Pushes files and answers the push's data (fails the test when it is not a 200). */
  push(
    sessionId: string,
    files: Record<string, string>,
  ): Promise<{ count: number; files: Array<{ path: string; version: number; size: number }> }>;
  /**
   * A GET of a page or file, not an envelope: `/preview/<id>/<path>` and `/app/<sid>/<path>` on
   * the preview's or app's own origin (`<label>.preview.localhost`, `<label>.apps.localhost`),
   * anything else on the platform's.
   */
  page(
    url: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: string; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function stageUnderTest(env: Env = {}): Promise<Stage> {
  const svc = await serviceUnderTest(stage, { env, jobs: false });
  const api = jsonApi(svc.app, '/api/v1/stage');
  return {
    svc,
    api,
    studio: jsonApi(svc.app, '/api/v1/studio'),
    async session() {
      const res = await api.post('/sessions');
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    },
    async push(sessionId, files) {
      const res = await api.post(`/sessions/${sessionId}/push`, { files });
      expect(res.body).toMatchObject({ success: true });
      return res.body.data;
    },
    async page(url, headers = {}) {
      const res = await svc.app.inject({ method: 'GET', ...onItsOrigin(url), headers: { ...headers, ...onItsOrigin(url).headers } }); // prettier-ignore
      return { status: res.statusCode, body: res.body, headers: res.headers };
    },
    close: () => svc.close(),
  };
}

/**
 * Where a sandbox address is served: `/preview/<id>/<rest>` and `/app/<sid>/<rest>` on their own
 * origin (the Host the gateway routes by), anything else as it is.
 */
export function onItsOrigin(url: string): { url: string; headers: Record<string, string> } {
  const match = /^\/(preview|app)\/([^/?#]+)\/(.*)$/.exec(url);
  if (!match) return { url, headers: {} };
  const [, kind, id, rest] = match;
  const domain = kind === 'app' ? 'apps.localhost' : 'preview.localhost';
  return { url: `/${rest}`, headers: { host: `${labelOf(id)}.${domain}:3000` } };
}

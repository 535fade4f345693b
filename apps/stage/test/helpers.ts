import type { Env } from '@platform/core';
import { jsonApi, serviceUnderTest, type JsonApi, type ServiceUnderTest } from '@platform/testing';
import stage from '../src/index';

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
  /** A GET of a page or file, not an envelope. */
  page(url: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }>;
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
    async page(url) {
      const res = await svc.app.inject({ method: 'GET', url });
      return { status: res.statusCode, body: res.body, headers: res.headers };
    },
  };
}

import type { Json } from '@platform/testing';
import { stageUnderTest, type Stage } from './helpers';

export interface Workflows extends Stage {
  /** A session holding `workflows` as /app/platform.workflows.json, published as `name`. */
  publish(
    name: string,
    workflows: object,
    config?: object,
  ): Promise<{ sid: string; sessionId: string }>;
  run(
    app: string,
    workflow: string,
    body?: object,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Json; headers: Record<string, unknown> }>;
}

export async function workflowsUnderTest(env: Record<string, string> = {}): Promise<Workflows> {
  const stage = await stageUnderTest(env);
  return {
    ...stage,
    async publish(name, workflows, config) {
      const sessionId = await stage.session();
      await stage.push(sessionId, {
        '/app/platform.workflows.json': JSON.stringify({ version: 1, workflows }),
      });
      const res = await stage.api.post('/apps', { sessionId, name, ...(config ? { config } : {}) });
      expect(res.status).toBe(201);
      return { sid: res.body.data.sid as string, sessionId };
    },
    async run(app, workflow, body, headers = {}) {
      const res = await stage.svc.app.inject({
        method: 'POST',
        url: `/api/v1/run/${app}/${workflow}`,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
  };
}

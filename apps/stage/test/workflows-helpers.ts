import {
  eventually,
  jsonApi,
  serviceUnderTest,
  type JsonApi,
  type Json,
  type ServiceUnderTest,
} from '@platform/testing';
import stage from '../src/index';
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

export interface DurableWorkflows {
  svc: ServiceUnderTest;
  api: JsonApi;
  publish: Workflows['publish'];
  run: Workflows['run'];
  /** Replaces the app's workflows file (a new version of it). */
  update(sessionId: string, workflows: object): Promise<void>;
  /** GET .../runs/:runId/steps, by path. */
  steps(sid: string, runId: string): Promise<Record<string, Json>>;
  /** Waits until the run is in one of `statuses`; answers it. */
  settled(sid: string, runId: string, statuses?: string[]): Promise<Json>;
  close(): Promise<void>;
}

/** The stage service polling for its jobs (sleeps wake, queued runs run), for durable runs. */
export async function durableUnderTest(
  env: Record<string, string> = {},
): Promise<DurableWorkflows> {
  const svc = await serviceUnderTest(stage, {
    env: { STAGE_WORKFLOW_SYNC_MS: '2000', ...env },
    jobs: { pollMs: 50 },
  });
  const api = jsonApi(svc.app, '/api/v1/stage');
  const file = (workflows: object) => ({
    '/app/platform.workflows.json': JSON.stringify({ version: 1, workflows }),
  });
  const self: DurableWorkflows = {
    svc,
    api,
    async publish(name, workflows, config) {
      const sessionId = (await api.post('/sessions')).body.data.id as string;
      expect((await api.post(`/sessions/${sessionId}/push`, { files: file(workflows) })).status).toBe(200); // prettier-ignore
      const res = await api.post('/apps', { sessionId, name, ...(config ? { config } : {}) });
      expect(res.status).toBe(201);
      return { sid: res.body.data.sid as string, sessionId };
    },
    async update(sessionId, workflows) {
      expect((await api.post(`/sessions/${sessionId}/push`, { files: file(workflows) })).status).toBe(200); // prettier-ignore
    },
    async run(app, workflow, body, headers = {}) {
      const res = await svc.app.inject({
        method: 'POST',
        url: `/api/v1/run/${app}/${workflow}`,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
    async steps(sid, runId) {
      const res = await api.get(`/apps/${sid}/runs/${runId}/steps`);
      expect(res.status).toBe(200);
      return Object.fromEntries((res.body.data as Json[]).map((s) => [s.path, s]));
    },
    async settled(sid, runId, statuses = ['completed', 'failed']) {
      let run: Json;
      await eventually(
        async () => {
          run = (await api.get(`/apps/${sid}/runs/${runId}`)).body.data;
          expect(statuses).toContain(run.status);
        },
        { timeout: 20_000 },
      );
      return run;
    },
    close: () => svc.close(),
  };
  return self;
}

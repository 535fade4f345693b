import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '@platform/core';
import { sql, type PlatformDatabase } from '@platform/db';
import {
  jsonApi,
  serviceUnderTest,
  type Json,
  type JsonApi,
  type ServiceUnderTest,
} from '@platform/testing';
import stage from '../src/index';

/** A stage instance whose bare imports come from `registry`, packages unpacked in a folder of its own. */
export interface NpmStage {
  svc: ServiceUnderTest;
  api: JsonApi;
  /** Pushes `files` to a new session (or `id`) and renders `entry`: the render's answer. */
  render(
    files: Record<string, string>,
    options?: { id?: string; entry?: string },
  ): Promise<{ id: string; status: number; body: Json }>;
  /** The session's /app/package-lock.json, parsed (undefined when it has none). */
  lock(id: string): Promise<Json>;
  /** The served output of the session's last good render. */
  output(id: string): Promise<{ js: string; css: string | null }>;
  close(): Promise<void>;
}

export async function npmStage(
  registry: string,
  env: Env = {},
  shared?: PlatformDatabase,
): Promise<NpmStage> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'stage-npm-test-'));
  const svc = await serviceUnderTest(stage, {
    db: shared,
    env: { STAGE_NPM_REGISTRY: registry, STAGE_NPM_CACHE_DIR: cacheDir, ...env },
    jobs: false,
  });
  const api = jsonApi(svc.app, '/api/v1/stage');
  return {
    svc,
    api,
    async render(files, options = {}) {
      const id = options.id ?? (await api.post('/sessions')).body.data.id;
      expect((await api.post(`/sessions/${id}/push`, { files })).status).toBe(200);
      const res = await api.post(`/sessions/${id}/render`, { entry: options.entry ?? '/app/main.tsx' }); // prettier-ignore
      return { id, status: res.status, body: res.body };
    },
    async lock(id) {
      const res = await svc.app.inject({ method: 'GET', url: `/api/v1/stage/sessions/${id}/files/app/package-lock.json` }); // prettier-ignore
      return res.statusCode === 404 ? undefined : JSON.parse(res.body);
    },
    async output(id) {
      const { rows } = await sql<{ js: string; css: string | null }>`
        select js, css from stage.renders where session_id = ${id}`.execute(svc.db.kysely);
      return rows[0];
    },
    async close() {
      // A shared database is closed by its owner.
      await (shared ? svc.app.close() : svc.close());
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}

/** The tarballs the database keeps, by name@version. */
export async function cachedPackages(db: PlatformDatabase): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select name || '@' || version as id from stage.npm_packages order by 1`.execute(db.kysely);
  return rows.map((row) => row.id);
}

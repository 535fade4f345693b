import { sql } from '@platform/db';
import { useService } from '@platform/testing';
import type { StageDatabase } from '../src/database';
import { reclaimSessions } from '../src/repositories/sessions';
import { stageUnderTest } from './helpers';

const s = useService(stageUnderTest, { scope: 'all' });

const contents = async (id: string) =>
  Object.fromEntries(
    (await s.api.get(`/sessions/${id}/files?content=true`)).body.data.map(
      (f: { path: string; content: string; version: number }) => [
        f.path,
        `${f.content}@${f.version}`,
      ],
    ),
  );

describe('snapshots', () => {
  it('snapshots every file at its version, then restores it: changed files come back as new versions, new ones go', async () => {
    const id = await s.session();
    await s.push(id, { '/a.ts': 'a1', '/b.ts': 'b1', '/c.ts': 'c1' });
    await s.push(id, { '/a.ts': 'a2' });
    const taken = await s.api.post(`/sessions/${id}/snapshots`, { label: 'before refactor' });
    expect(taken.status).toBe(201);
    expect(taken.body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      label: 'before refactor',
      createdAt: expect.any(Number),
      fileCount: 3,
      totalBytes: 6,
    });

    await s.push(id, { '/a.ts': 'a3', '/d.ts': 'd1' });
    await s.api.del(`/sessions/${id}/files/b.ts`);
    expect(await contents(id)).toEqual({ '/a.ts': 'a3@3', '/c.ts': 'c1@1', '/d.ts': 'd1@1' });

    const restored = await s.api.post(`/sessions/${id}/snapshots/${taken.body.data.id}/restore`);
    expect(restored.body.data).toEqual({ snapshot: taken.body.data, written: 2, deleted: 1 });
    expect(await contents(id)).toEqual({ '/a.ts': 'a2@4', '/b.ts': 'b1@3', '/c.ts': 'c1@1' });
    const history = (await s.api.get(`/sessions/${id}/history?path=/d.ts`)).body.data;
    expect(
      history.map((v: { version: number; deleted: boolean }) => [v.version, v.deleted]),
    ).toEqual([
      [2, true],
      [1, false],
    ]);
  });

  it("lists snapshots newest first, and answers NOT_FOUND for another session's snapshot", async () => {
    const id = await s.session();
    await s.push(id, { '/a.ts': 'a' });
    const first = (await s.api.post(`/sessions/${id}/snapshots`)).body.data;
    const second = (await s.api.post(`/sessions/${id}/snapshots`, { label: 'two' })).body.data;
    expect(first.label).toBeNull();
    expect(
      (await s.api.get(`/sessions/${id}/snapshots`)).body.data.map((x: { id: string }) => x.id),
    ).toEqual([second.id, first.id]);
    expect(
      (await s.api.get(`/sessions/${id}/snapshots?limit=1&offset=1`)).body.data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([first.id]);
    const other = await s.session();
    const res = await s.api.post(`/sessions/${other}/snapshots/${first.id}/restore`);
    expect([res.status, res.body.error.message]).toEqual([404, `Snapshot not found: ${first.id}`]);
    expect((await s.api.post(`/sessions/${id}/snapshots`, { label: '' })).status).toBe(400);
  });
});

describe('retention', () => {
  it('removes sessions unused for long that serve no app, their contents included, and keeps the others', async () => {
    const old = await s.session();
    await s.push(old, { '/only-here.ts': 'unique content of the old session' });
    const published = await s.session();
    await s.push(published, { '/app.ts': 'x' });
    await s.api.post('/apps', { sessionId: published, name: 'kept-app' });
    const recent = await s.session();
    const db = s.svc.db.schema<StageDatabase>('stage');
    await db
      .updateTable('sessions')
      .set({ last_accessed_at: sql`now() - interval '40 days'` })
      .where('id', 'in', [old, published])
      .execute();

    expect(await reclaimSessions(db, new Date(Date.now() - 30 * 24 * 3600 * 1000))).toBe(1);
    expect((await s.api.get(`/sessions/${old}/status`)).status).toBe(404);
    expect((await s.api.get(`/sessions/${published}/status`)).status).toBe(200);
    expect((await s.api.get(`/sessions/${recent}/status`)).status).toBe(200);
    const blobs = await db
      .selectFrom('blobs')
      .select('hash')
      .where('content', '=', 'unique content of the old session')
      .execute();
    expect(blobs).toEqual([]);
  });
});

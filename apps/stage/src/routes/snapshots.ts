import { ok, PageQuery, responses, Type } from '@platform/core';
import { sessionAccess } from '../domain/access.js';
import { changeFiles, type Change } from '../repositories/files.js';
import { useSession } from '../repositories/sessions.js';
import {
  findSnapshot,
  insertSnapshot,
  listSnapshots,
  snapshotContents,
} from '../repositories/snapshots.js';
import { SessionParams } from '../schemas/sessions.js';
import {
  RestoredSchema,
  SnapshotBody,
  SnapshotParams,
  SnapshotSchema,
  toSnapshot,
} from '../schemas/snapshots.js';
import type { StageRoutes } from '../domain/state.js';

export const snapshotRoutes: StageRoutes = async (app, { db, config }) => {
  const session = sessionAccess(db);
  app.post(
    '/sessions/:id/snapshots',
    {
      config: { access: session.update },
      schema: {
        operationId: 'createSnapshot',
        summary: 'Snapshot a session',
        description: 'Every current file at its current version, under an optional label.',
        params: SessionParams,
        body: SnapshotBody,
        response: responses({ 201: SnapshotSchema }),
      },
    },
    async (request, reply) => {
      const { id } = await insertSnapshot(db, request.params.id, request.body?.label ?? null);
      return reply.code(201).send(ok(toSnapshot(await findSnapshot(db, request.params.id, id))));
    },
  );

  app.get(
    '/sessions/:id/snapshots',
    {
      config: { access: session.read },
      schema: {
        operationId: 'getSnapshots',
        summary: "A session's snapshots",
        description: 'Newest first.',
        params: SessionParams,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(SnapshotSchema) }),
      },
    },
    async (request) => {
      const { id } = await useSession(db, request.params.id);
      return ok((await listSnapshots(db, id, request.query)).map(toSnapshot));
    },
  );

  app.post(
    '/sessions/:id/snapshots/:snapshotId/restore',
    {
      config: { access: session.update },
      schema: {
        operationId: 'restoreSnapshot',
        summary: 'Restore a snapshot',
        description:
          "The session's files become the snapshot's: each file that differs is written back as a new version (history keeps everything), files the snapshot did not have are deleted, in one transaction.",
        params: SnapshotParams,
        response: responses({ 200: RestoredSchema }),
      },
    },
    async (request) => {
      const { id, snapshotId } = request.params;
      await useSession(db, id);
      const snapshot = await findSnapshot(db, id, snapshotId);
      const saved = await snapshotContents(db, snapshot.id);
      let written = 0;
      let deleted = 0;
      await changeFiles(
        db,
        id,
        (current) => {
          const wanted = new Map(saved.map((f) => [f.path, f]));
          const changes: Change[] = [];
          for (const f of saved)
            if (current.get(f.path)?.hash !== f.hash) changes.push({ ...f, content: f.content });
          for (const row of current.values())
            if (row.hash !== null && !wanted.has(row.path))
              changes.push({ path: row.path, content: null });
          written = changes.filter((c) => c.content !== null).length;
          deleted = changes.length - written;
          return changes;
        },
        config,
      );
      return ok({ snapshot: toSnapshot(snapshot), written, deleted });
    },
  );
};

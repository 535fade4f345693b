import { posix } from 'node:path';
import { badRequest, ok, responses, type ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { RenderError, StageDatabase } from '../database.js';
import { sessionAccess } from '../access.js';
import { checkPath } from '../paths.js';
import { bundle } from '../render/bundle.js';
import { filesWithContent } from '../repositories/files.js';
import { findRenderState, saveRender, saveRenderError } from '../repositories/renders.js';
import { useSession } from '../repositories/sessions.js';
import {
  RenderBodySchema,
  RenderedSchema,
  RenderStateSchema,
  SessionParams,
} from '../schemas/sessions.js';
import { toRenderState } from '../views.js';

/** The folder the page is served from: the nearest one above the entry with an index.html. */
export function pageRoot(entry: string, files: ReadonlyMap<string, string>): string {
  for (let dir = posix.dirname(entry); ; dir = posix.dirname(dir)) {
    if (files.has(posix.join(dir, 'index.html'))) return dir;
    if (dir === '/') return posix.dirname(entry);
  }
}

const where = (error: RenderError) =>
  error.file ? ` (${error.file}${error.line ? `:${error.line}:${error.column}` : ''})` : '';

export const renderRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  const session = sessionAccess(db);
  app.post(
    '/sessions/:id/render',
    {
      config: { access: session.update },
      schema: {
        operationId: 'triggerRender',
        summary: 'Render a session',
        description:
          "Bundles `entry` and what it imports with esbuild (TS, TSX/JSX, CSS, JSON; the session's files, and react and react-dom as the platform ships them; any other bare import fails naming it). A good render becomes the next version, served at /preview/<id>/. A failed one answers 400 with the file, line and column, sets render.error and leaves the last good output served.",
        params: SessionParams,
        body: RenderBodySchema,
        response: responses({ 200: RenderedSchema }),
      },
    },
    async (request) => {
      const entry = checkPath(request.body.entry, 'entry');
      const { id } = await useSession(db, request.params.id);
      const rows = await filesWithContent(db, id);
      const files = new Map(rows.map((row) => [row.path, row.content]));
      const output = await bundle(entry, files);
      if (!output.ok) {
        await saveRenderError(db, id, entry, output.error);
        throw badRequest(
          `Render of ${entry} failed${where(output.error)}: ${output.error.message}`,
        );
      }
      const root = pageRoot(entry, files);
      return ok(await saveRender(db, id, { entry, root, js: output.js, css: output.css }));
    },
  );

  app.get(
    '/sessions/:id/render',
    {
      config: { access: session.read },
      schema: {
        operationId: 'getRenderState',
        summary: 'Render state of a session',
        description: 'As in the status: entry, version, error and renderedAt.',
        params: SessionParams,
        response: responses({ 200: RenderStateSchema }),
      },
    },
    async (request) => {
      const { id } = await useSession(db, request.params.id);
      return ok(toRenderState(await findRenderState(db, id)));
    },
  );
};

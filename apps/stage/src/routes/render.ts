import { badRequest, ok, responses } from '@platform/core';
import type { RenderError } from '../database/index.js';
import { sessionAccess } from '../domain/access.js';
import { checkPath } from '../domain/paths.js';
import { pageRoot } from '../domain/render/assets.js';
import { saveLock } from '../domain/npm/session.js';
import { bundle } from '../domain/render/bundle.js';
import { filesWithContent } from '../repositories/files.js';
import { findRenderState, saveRender, saveRenderError } from '../repositories/renders.js';
import { useSession } from '../repositories/sessions.js';
import {
  RenderBodySchema,
  RenderedSchema,
  RenderStateSchema,
  SessionParams,
  toRenderState,
} from '../schemas/sessions.js';
import type { StageRoutes } from '../domain/state.js';

const where = (error: RenderError) =>
  error.file ? ` (${error.file}${error.line ? `:${error.line}:${error.column}` : ''})` : '';

export const renderRoutes: StageRoutes = async (app, { db, config, state }) => {
  const session = sessionAccess(db);
  const { packages } = state;
  app.post(
    '/sessions/:id/render',
    {
      config: { access: session.update },
      schema: {
        operationId: 'triggerRender',
        summary: 'Render a session',
        description:
          "Bundles `entry` and what it imports with esbuild (TS, TSX/JSX, CSS, JSON; images, fonts and other files as URLs, inlined as data: under 4 KB; the session's files; react and react-dom as the platform ships them; other bare imports from the npm registry at the versions /app/package.json asks for, else the latest, pinned in /app/package-lock.json at the first render; a missing or too large package fails naming it). A good render becomes the next version, served at /preview/<id>/. A failed one answers 400 with the file, line and column, sets render.error and leaves the last good output served.",
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
      const output = await bundle(entry, files, (imports) => packages.install(files, imports));
      if (!output.ok) {
        await saveRenderError(db, id, entry, output.error);
        throw badRequest(
          `Render of ${entry} failed${where(output.error)}: ${output.error.message}`,
        );
      }
      if (output.lock) await saveLock(db, id, files, output.lock, config);
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

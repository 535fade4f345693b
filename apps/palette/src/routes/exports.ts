import { ok, responses, type Access, type ServiceRoutes } from '@platform/core';
import type { PaletteDatabase, TokenSource } from '../database.js';
import { exportTokens } from '../domain/exports.js';
import { listModes, modeValuesOf, modifierDefaults } from '../repositories/import.js';
import { allTokens } from '../repositories/tokens.js';
import { ExportQuery, ExportSchema } from '../schemas/exports.js';

/** Shared knowledge: any signed-in caller exports the tokens. */
const READ: Access = { resource: 'palette.export', action: 'read' };

export const exportRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  app.get(
    '/export',
    {
      config: { access: READ },
      schema: {
        operationId: 'export',
        summary: 'Export every token',
        description:
          'css: custom properties (:root, dark under [data-theme="dark"] and prefers-color-scheme), aliases as var() of their target; json: W3C design tokens (DTCG, values as CSS text, what Style Dictionary 4 reads), aliases kept; dtcg: DTCG 2025.10 as an import reads it (with modes, { resolver, documents }); other modes under their selector and media query (GET /modes); tailwind: a Tailwind 3 preset (CommonJS module); tailwind4: an @theme block.',
        querystring: ExportQuery,
        response: responses({ 200: ExportSchema }),
      },
    },
    async (request) => {
      const { format } = request.query;
      const modeValues = await modeValuesOf(db);
      const tokens = (await allTokens(db)).map((row) => ({
        ...row,
        cssVariable: row.css_variable,
        tailwindKey: row.tailwind_key,
        source: row.source === null ? null : (JSON.parse(row.source) as TokenSource),
        modes: Object.fromEntries(
          (modeValues.get(row.id) ?? []).map((m) => [
            m.mode,
            { value: m.value, ref: m.ref, source: m.source },
          ]),
        ),
      }));
      const modes = await listModes(db, { limit: 10000, offset: 0 });
      const defaults = await modifierDefaults(db);
      return ok({ format, output: exportTokens(tokens, format, modes, defaults) });
    },
  );
};

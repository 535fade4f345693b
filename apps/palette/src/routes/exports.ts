import { ok, responses, type Access, type ServiceRoutes } from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { exportTokens } from '../domain/exports.js';
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
          'css: custom properties (:root, dark under [data-theme="dark"] and prefers-color-scheme), aliases as var() of their target; json: W3C design tokens (DTCG), aliases kept; tailwind: a Tailwind 3 preset (CommonJS module); tailwind4: an @theme block.',
        querystring: ExportQuery,
        response: responses({ 200: ExportSchema }),
      },
    },
    async (request) => {
      const { format } = request.query;
      const tokens = (await allTokens(db)).map((row) => ({
        ...row,
        cssVariable: row.css_variable,
        tailwindKey: row.tailwind_key,
      }));
      return ok({ format, output: exportTokens(tokens, format) });
    },
  );
};

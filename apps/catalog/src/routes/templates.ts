import { IdOrNameParams, ok, responses, Type, type Access } from '@platform/core';
import type { CatalogRoutes } from '../domain/state.js';
import { findTemplate, listTemplates } from '../repositories/templates.js';
import {
  TemplateListQuery,
  TemplateSchema,
  TemplateSummarySchema,
  toTemplateSummary,
} from '../schemas/templates.js';

/** Templates (Backstage's scaffolder kind): imported, listed, read whole; never run here. */
export const templateRoutes: CatalogRoutes = async (app, { db }) => {
  const READ: Access = { resource: 'catalog.template', action: 'read' };

  app.get(
    '/templates',
    {
      config: { access: READ },
      schema: {
        operationId: 'listTemplates',
        summary: 'List templates by name',
        description: 'Templates imported from Backstage descriptors, without their descriptors.',
        querystring: TemplateListQuery,
        response: responses({ 200: Type.Array(TemplateSummarySchema) }),
      },
    },
    async (request) => ok((await listTemplates(db, request.query)).map(toTemplateSummary)),
  );

  app.get(
    '/templates/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getTemplate',
        summary: 'Get a template with its descriptor',
        description: 'By id, `namespace/name` (slash as %2F) or a name in `default`.',
        params: IdOrNameParams,
        response: responses({ 200: TemplateSchema }),
      },
    },
    async (request) => {
      const row = await findTemplate(db, request.params.idOrName);
      return ok({ ...toTemplateSummary(row), descriptor: row.descriptor as object });
    },
  );
};

import { newId, notFound, ok, orConflict, responses, Type, type Access } from '@platform/core';
import { appOwners } from '../domain/app-owners.js';
import type { CommunicationRoutes } from '../domain/state.js';
import {
  deleteTemplate,
  findTemplate,
  insertTemplate,
  listTemplates,
  templateVersion,
  updateTemplate,
} from '../repositories/templates.js';
import { AppParams } from '../schemas/registrations.js';
import {
  contentOf,
  PreviewSchema,
  RenderedSchema,
  TemplateGetQuery,
  TemplateInputSchema,
  TemplateListQuery,
  TemplateParams,
  TemplateSchema,
  TemplateUpdateSchema,
  toTemplate,
} from '../schemas/templates.js';

export const templateRoutes: CommunicationRoutes = async (app, { db, platform, state }) => {
  const { templates: engine } = state;
  /** An app's templates are its owners' (members), admins' and the platform services'. */
  const access = (action: Access['action']): Access => ({
    resource: 'communication.template',
    action,
    rule: 'owner',
    owner: appOwners(platform),
  });
  const taken = (name: string) => `A template named ${name} already exists in this app`;
  async function found(appId: string, idOrName: string) {
    const row = await findTemplate(db, appId, idOrName);
    if (!row) throw notFound('Template', idOrName);
    return row;
  }

  app.post(
    '/apps/:appId/templates',
    {
      config: { access: access('create') },
      schema: {
        operationId: 'createTemplate',
        summary: 'Create a message template (version 1)',
        description:
          'Liquid forms per locale (`{{ name }}` placeholders; HTML output escaped; no code, no includes), a JSON Schema of the data, a fallback locale, an optional digest form. 400 naming the form that does not parse; 409 when the name is taken in the app.',
        params: AppParams,
        body: TemplateInputSchema,
        response: responses({ 201: TemplateSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const content = contentOf(body);
      const validator = engine.check(content);
      const row = await orConflict(
        () =>
          insertTemplate(db, {
            id: newId(8, 'tpl_'),
            app_id: request.params.appId,
            name: body.name,
            category: body.category,
            content,
          }),
        taken(body.name),
      );
      engine.keep(`${row.id}:${row.version}`, validator);
      return reply.code(201).send(ok(toTemplate(row)));
    },
  );

  app.get(
    '/apps/:appId/templates',
    {
      config: { access: access('read') },
      schema: {
        operationId: 'listTemplates',
        summary: "List an app's templates by name",
        description: '`category` filters; `limit` (100, at most 1000) and `offset` page.',
        params: AppParams,
        querystring: TemplateListQuery,
        response: responses({ 200: Type.Array(TemplateSchema) }),
      },
    },
    async (request) => {
      const { category, limit, offset } = request.query;
      const rows = await listTemplates(db, request.params.appId, { category }, { limit, offset });
      return ok(rows.map(toTemplate));
    },
  );

  app.get(
    '/apps/:appId/templates/:idOrName',
    {
      config: { access: access('read') },
      schema: {
        operationId: 'getTemplate',
        summary: 'Get a template, its current version or an earlier one',
        description: "`version` answers that version's content (404 when there is none).",
        params: TemplateParams,
        querystring: TemplateGetQuery,
        response: responses({ 200: TemplateSchema }),
      },
    },
    async (request) => {
      const row = await found(request.params.appId, request.params.idOrName);
      const { version } = request.query;
      if (version === undefined || version === row.version) return ok(toTemplate(row));
      const content = await templateVersion(db, row.id, version);
      if (!content) throw notFound('Template version', `${row.name} v${version}`);
      return ok(toTemplate({ ...row, version, content }));
    },
  );

  app.put(
    '/apps/:appId/templates/:idOrName',
    {
      config: { access: access('update') },
      schema: {
        operationId: 'updateTemplate',
        summary: 'Change a template: a new version',
        description:
          'Fields not sent are kept. The template moves to the next version; sends record the version they rendered, earlier versions stay readable (GET ?version=).',
        params: TemplateParams,
        body: TemplateUpdateSchema,
        response: responses({ 200: TemplateSchema }),
      },
    },
    async (request) => {
      const row = await found(request.params.appId, request.params.idOrName);
      const body = request.body;
      const merged = {
        name: body.name ?? row.name,
        category: body.category ?? row.category,
        schema: body.schema ?? row.content.schema,
        fallbackLocale: body.fallbackLocale ?? row.content.fallbackLocale,
        locales: body.locales ?? row.content.locales,
        sampleData: body.sampleData ?? row.content.sampleData,
        digest: body.digest ?? row.content.digest,
      };
      const content = contentOf(merged);
      const validator = engine.check(content);
      const saved = await orConflict(
        () => updateTemplate(db, row, { name: merged.name, category: merged.category, content }),
        taken(merged.name),
      );
      engine.keep(`${saved.id}:${saved.version}`, validator);
      return ok(toTemplate(saved));
    },
  );

  app.delete(
    '/apps/:appId/templates/:idOrName',
    {
      config: { access: access('delete') },
      schema: {
        operationId: 'deleteTemplate',
        summary: 'Delete a template and its versions',
        description:
          'Answers with the removed template. Deliveries rendered from it keep their text.',
        params: TemplateParams,
        response: responses({ 200: TemplateSchema }),
      },
    },
    async (request) => {
      const row = await found(request.params.appId, request.params.idOrName);
      await deleteTemplate(db, row.id);
      return ok(toTemplate(row));
    },
  );

  app.post(
    '/apps/:appId/templates/:idOrName/preview',
    {
      config: { access: access('read') },
      schema: {
        operationId: 'previewTemplate',
        summary: 'Render a template with sample data',
        description:
          "Renders the current version with `data` (default: the template's sampleData), checked against its schema (400 naming the field), in `locale` (default and when missing: the fallback). `digest: true` renders the digest form with `{ items: [data], count: 1 }`.",
        params: TemplateParams,
        body: PreviewSchema,
        response: responses({ 200: RenderedSchema }),
      },
    },
    async (request) => {
      const row = await found(request.params.appId, request.params.idOrName);
      const { content } = row;
      const data = request.body.data ?? content.sampleData ?? {};
      engine.validate(`${row.id}:${row.version}`, content.schema, data, row.name);
      const digest = request.body.digest === true;
      if (digest && !content.digest) throw notFound('Digest form of template', row.name);
      const rendered = digest
        ? await engine.render(
            content,
            content.digest!.locales,
            { items: [data], count: 1 },
            request.body.locale,
          )
        : await engine.render(content, content.locales, data, request.body.locale);
      return ok({ ...rendered, version: row.version });
    },
  );
};

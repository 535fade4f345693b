import {
  conflict,
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { ComponentRow, PaletteDatabase } from '../database.js';
import { distinctNames, sentFields, unique } from '../domain/records.js';
import { toComponent, toProp, toToken, toVariant } from '../mappers.js';
import {
  appendItem,
  componentRelations,
  deleteComponent,
  findComponent,
  insertComponent,
  listComponents,
  tokenIdsOf,
  updateComponent,
} from '../repositories/components.js';
import { resolveRefs } from '../repositories/records.js';
import {
  ComponentInputSchema,
  ComponentListQuery,
  ComponentResolvedSchema,
  ComponentSchema,
  ComponentUpdateSchema,
  ExampleInputSchema,
  PropInputSchema,
  VariantInputSchema,
} from '../schemas/components.js';

export const componentRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  /** Components with their token ids: one query for the tokens of all of them. */
  const withTokens = async (rows: ComponentRow[]) => {
    const tokens = await tokenIdsOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toComponent(row, tokens.get(row.id) ?? []));
  };
  const shown = async (row: ComponentRow) => (await withTokens([row]))[0];

  /** Adds a prop, variant or example; 409 when the component has one of that name. */
  const append = async (
    idOrName: string,
    column: 'props' | 'variants' | 'examples',
    item: { name: string },
    what: string,
  ) => {
    const current = await findComponent(db, idOrName);
    const row = await appendItem(db, current.id, column, item);
    if (!row) throw conflict(`Component ${current.name} has a ${what} named ${item.name} already`);
    return ok(await shown(row));
  };

  app.get(
    '/components',
    {
      schema: {
        operationId: 'listComponents',
        summary: 'List components by name',
        querystring: ComponentListQuery,
        response: responses({ 200: Type.Array(ComponentSchema) }),
      },
    },
    async (request) => {
      const { status, category, tag, limit, offset } = request.query;
      return ok(
        await withTokens(await listComponents(db, { status, category, tag }, { limit, offset })),
      );
    },
  );

  app.post(
    '/components',
    {
      schema: {
        operationId: 'createComponent',
        summary: 'Create a component',
        body: ComponentInputSchema,
        response: responses({ 201: ComponentSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      distinctNames(body.props, 'props');
      distinctNames(body.variants, 'variants');
      const tokenIds = await resolveRefs(db, 'tokens', body.tokens ?? [], 'token');
      const row = await orConflict(
        insertComponent(
          db,
          {
            name: body.name,
            status: body.status ?? 'draft',
            category: body.category ?? null,
            description: body.description ?? null,
            props: (body.props ?? []).map(toProp),
            variants: (body.variants ?? []).map(toVariant),
            examples: [],
            tags: unique(body.tags ?? []),
          },
          tokenIds,
        ),
        nameTaken('Component', body.name),
      );
      return reply.code(201).send(ok(toComponent(row, tokenIds)));
    },
  );

  app.get(
    '/components/:idOrName',
    {
      schema: {
        operationId: 'getComponent',
        summary: 'Get a component with its relations resolved',
        description:
          'resolved: the token records, the patterns that use it, the accessibility rules that apply to it.',
        params: IdOrNameParams,
        response: responses({ 200: ComponentResolvedSchema }),
      },
    },
    async (request) => {
      const row = await findComponent(db, request.params.idOrName);
      const { tokens, patterns, rules } = await componentRelations(db, row.id);
      const component = toComponent(
        row,
        tokens.map((t) => t.id),
      );
      return ok({ ...component, resolved: { tokens: tokens.map(toToken), patterns, rules } });
    },
  );

  app.put(
    '/components/:idOrName',
    {
      schema: {
        operationId: 'updateComponent',
        summary: 'Update a component',
        description:
          'Changes the fields sent; props, variants and tokens, when sent, replace the lists.',
        params: IdOrNameParams,
        body: ComponentUpdateSchema,
        response: responses({ 200: ComponentSchema }),
      },
    },
    async (request) => {
      const current = await findComponent(db, request.params.idOrName);
      const body = request.body;
      distinctNames(body.props, 'props');
      distinctNames(body.variants, 'variants');
      const tokenIds = body.tokens && (await resolveRefs(db, 'tokens', body.tokens, 'token'));
      const changes = sentFields({
        name: body.name,
        status: body.status,
        category: body.category,
        description: body.description,
        props: body.props?.map(toProp),
        variants: body.variants?.map(toVariant),
        tags: body.tags && unique(body.tags),
      });
      const row = await orConflict(
        updateComponent(db, current.id, changes, tokenIds),
        nameTaken('Component', body.name ?? current.name),
      );
      return ok(await shown(row));
    },
  );

  app.delete(
    '/components/:idOrName',
    {
      schema: {
        operationId: 'deleteComponent',
        summary: 'Delete a component',
        description:
          'Answers with the deleted component; it leaves the patterns and rules that named it.',
        params: IdOrNameParams,
        response: responses({ 200: ComponentSchema }),
      },
    },
    async (request) => {
      const component = await shown(await findComponent(db, request.params.idOrName));
      await deleteComponent(db, component.id);
      return ok(component);
    },
  );

  const added = (operationId: string, summary: string) => ({
    operationId,
    summary,
    params: IdOrNameParams,
    response: responses({ 200: ComponentSchema }),
  });

  app.post(
    '/components/:idOrName/props',
    {
      schema: {
        ...added('addComponentProp', 'Add a prop (409 if one has that name)'),
        body: PropInputSchema,
      },
    },
    async (request) => append(request.params.idOrName, 'props', toProp(request.body), 'prop'),
  );

  app.post(
    '/components/:idOrName/variants',
    {
      schema: {
        ...added('addComponentVariant', 'Add a variant (409 if one has that name)'),
        body: VariantInputSchema,
      },
    },
    async (request) =>
      append(request.params.idOrName, 'variants', toVariant(request.body), 'variant'),
  );

  app.post(
    '/components/:idOrName/examples',
    {
      schema: {
        ...added('addComponentExample', 'Add an example (409 if one has that name)'),
        body: ExampleInputSchema,
      },
    },
    async (request) => {
      const { name, code, description } = request.body;
      const example = { name, code, description: description ?? null };
      return append(request.params.idOrName, 'examples', example, 'example');
    },
  );
};

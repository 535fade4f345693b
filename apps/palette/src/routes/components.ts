import {
  conflict,
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
  type ServiceRoutes,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import type { ComponentRow, PaletteDatabase } from '../database.js';
import { shownTokens } from '../domain/token-values.js';
import {
  appendItem,
  componentRelations,
  deleteComponent,
  findComponent,
  insertComponent,
  listComponents,
  updateComponent,
  withTokens,
} from '../repositories/components.js';
import { findOwnership, resolveRefs } from '../repositories/records.js';
import { namedChanges, newNamedColumns } from '../schemas/common.js';
import {
  ComponentInputSchema,
  ComponentListQuery,
  ComponentResolvedSchema,
  ComponentSchema,
  ComponentUpdateSchema,
  distinctNames,
  ExampleInputSchema,
  PropInputSchema,
  toComponent,
  VariantInputSchema,
  type PropInput,
  type VariantInput,
} from '../schemas/components.js';

const toProp = (p: PropInput) => ({
  name: p.name,
  type: p.type ?? 'string',
  required: p.required ?? false,
  default: p.default ?? null,
  description: p.description ?? null,
});

const toVariant = (v: VariantInput) => ({ name: v.name, description: v.description ?? null });

export const componentRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads; members create components; their creator, their
  // team and admins change or delete them, and add their props, variants and examples.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'components', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'palette.component', action: 'read' };
  const CREATE: Access = { resource: 'palette.component', action: 'create' };
  const UPDATE: Access = { resource: 'palette.component', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'palette.component', action: 'delete', rule: 'owner', owner };

  const shown = async (row: ComponentRow) => toComponent((await withTokens(db, [row]))[0]);

  app.get(
    '/components',
    {
      config: { access: READ },
      schema: {
        operationId: 'listComponents',
        summary: 'List components by name',
        querystring: ComponentListQuery,
        response: responses({ 200: Type.Array(ComponentSchema) }),
      },
    },
    async (request) => ok((await listComponents(db, request.query)).map(toComponent)),
  );

  app.post(
    '/components',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createComponent',
        summary: 'Create a component',
        body: ComponentInputSchema,
        response: responses({ 201: ComponentSchema }),
      },
    },
    async (request, reply) => {
      const { status = 'draft', props = [], variants = [], tokens = [] } = request.body;
      distinctNames(props, 'props');
      distinctNames(variants, 'variants');
      const owned = await ownershipColumns(request.identity, request.body.team, access);
      const tokenIds = await resolveRefs(db, 'tokens', tokens);
      const component = {
        ...owned,
        ...newNamedColumns(request.body),
        status,
        props: props.map(toProp),
        variants: variants.map(toVariant),
        examples: [],
      };
      const insert = () => insertComponent(db, component, tokenIds);
      const row = await orConflict(insert, nameTaken('Component', request.body.name));
      return reply.code(201).send(ok(toComponent({ ...row, tokens: tokenIds })));
    },
  );

  app.get(
    '/components/:idOrName',
    {
      config: { access: READ },
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
      const component = await shown(row);
      const { tokens, patterns, rules } = await componentRelations(db, row.id);
      return ok({
        ...component,
        resolved: { tokens: await shownTokens(db, tokens), patterns, rules },
      });
    },
  );

  app.put(
    '/components/:idOrName',
    {
      config: { access: UPDATE },
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
      const { name, status, props, variants, tokens } = request.body;
      distinctNames(props, 'props');
      distinctNames(variants, 'variants');
      const team = await teamChange(request.identity, request.body.team, access);
      const tokenIds = tokens && (await resolveRefs(db, 'tokens', tokens));
      const changes = {
        ...namedChanges(request.body),
        status,
        props: props?.map(toProp),
        variants: variants?.map(toVariant),
        team,
      };
      const update = () => updateComponent(db, current.id, changes, tokenIds);
      const row = await orConflict(update, nameTaken('Component', name ?? current.name));
      return ok(await shown(row));
    },
  );

  app.delete(
    '/components/:idOrName',
    {
      config: { access: DELETE },
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

  /**
   * Adds a prop, variant or example; 409 when the component has one of that name. They are part
   * of the component: its owners add them (UPDATE, as a PUT of it).
   */
  const added = (
    row: ComponentRow | undefined,
    current: ComponentRow,
    what: string,
    name: string,
  ) => {
    if (!row) throw conflict(`Component ${current.name} has a ${what} named ${name} already`);
    return shown(row);
  };

  const addition = (operationId: string, summary: string) => ({
    operationId,
    summary,
    params: IdOrNameParams,
    response: responses({ 200: ComponentSchema }),
  });

  app.post(
    '/components/:idOrName/props',
    {
      config: { access: UPDATE },
      schema: {
        ...addition('addComponentProp', 'Add a prop (409 if one has that name)'),
        body: PropInputSchema,
      },
    },
    async (request) => {
      const current = await findComponent(db, request.params.idOrName);
      const prop = toProp(request.body);
      const row = await appendItem(db, current.id, 'props', prop);
      return ok(await added(row, current, 'prop', prop.name));
    },
  );

  app.post(
    '/components/:idOrName/variants',
    {
      config: { access: UPDATE },
      schema: {
        ...addition('addComponentVariant', 'Add a variant (409 if one has that name)'),
        body: VariantInputSchema,
      },
    },
    async (request) => {
      const current = await findComponent(db, request.params.idOrName);
      const variant = toVariant(request.body);
      const row = await appendItem(db, current.id, 'variants', variant);
      return ok(await added(row, current, 'variant', variant.name));
    },
  );

  app.post(
    '/components/:idOrName/examples',
    {
      config: { access: UPDATE },
      schema: {
        ...addition('addComponentExample', 'Add an example (409 if one has that name)'),
        body: ExampleInputSchema,
      },
    },
    async (request) => {
      const current = await findComponent(db, request.params.idOrName);
      const { name, code, description } = request.body;
      const example = { name, code, description: description ?? null };
      const row = await appendItem(db, current.id, 'examples', example);
      return ok(await added(row, current, 'example', name));
    },
  );
};

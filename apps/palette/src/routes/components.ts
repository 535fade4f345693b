import { conflict, IdOrNameParams, ok, responses, type ServiceRoutes } from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { distinctNames } from '../domain/records.js';
import { toRecord } from '../mappers.js';
import { namedRecordRoutes } from '../named-records.js';
import { appendItem, componentRelations } from '../repositories/components.js';
import {
  ComponentInputSchema,
  ComponentListQuery,
  ComponentResolvedSchema,
  ComponentSchema,
  ExampleInputSchema,
  PropInputSchema,
  VariantInputSchema,
  type PropInput,
  type Status,
  type VariantInput,
} from '../schemas/components.js';
import { shownTokens } from '../token-values.js';

const toProp = (p: PropInput) => ({
  name: p.name,
  type: p.type ?? 'string',
  required: p.required ?? false,
  default: p.default ?? null,
  description: p.description ?? null,
});

const toVariant = (v: VariantInput) => ({ name: v.name, description: v.description ?? null });

export const componentRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  const { find, shown, CHANGE } = namedRecordRoutes(
    app,
    { db, access },
    {
      table: 'components',
      path: '/components',
      resource: 'Component',
      schemas: {
        Input: ComponentInputSchema,
        Record: ComponentSchema,
        ListQuery: ComponentListQuery,
      },
      toApi: (row, tokens) => ({ ...toRecord(row), status: row.status as Status, tokens }),
      columns: (body) => ({
        status: body.status,
        props: body.props?.map(toProp),
        variants: body.variants?.map(toVariant),
      }),
      defaults: { status: 'draft', props: [], variants: [], examples: [] },
      validate: (body) => {
        distinctNames(body.props, 'props');
        distinctNames(body.variants, 'variants');
      },
      get: {
        summary: 'with its relations resolved',
        description:
          'resolved: the token records, the patterns that use it, the accessibility rules that apply to it.',
        schema: ComponentResolvedSchema,
        extra: async (row) => {
          const { tokens, patterns, rules } = await componentRelations(db, row.id);
          return { resolved: { tokens: await shownTokens(db, tokens), patterns, rules } };
        },
      },
      update: {
        description:
          'Changes the fields sent; props, variants and tokens, when sent, replace the lists.',
      },
      deleteDescription:
        'Answers with the deleted component; it leaves the patterns and rules that named it.',
    },
  );

  /**
   * Adds a prop, variant or example; 409 when the component has one of that name. They are part
   * of the component: its owners add them (CHANGE, as a PUT of it).
   */
  const append = async (
    idOrName: string,
    column: 'props' | 'variants' | 'examples',
    item: { name: string },
    what: string,
  ) => {
    const current = await find(idOrName);
    const row = await appendItem(db, current.id, column, item);
    if (!row) throw conflict(`Component ${current.name} has a ${what} named ${item.name} already`);
    return ok(await shown(row));
  };

  const added = (operationId: string, summary: string) => ({
    operationId,
    summary,
    params: IdOrNameParams,
    response: responses({ 200: ComponentSchema }),
  });

  app.post(
    '/components/:idOrName/props',
    {
      config: { access: CHANGE },
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
      config: { access: CHANGE },
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
      config: { access: CHANGE },
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

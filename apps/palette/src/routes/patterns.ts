import {
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { PaletteDatabase, PatternRow } from '../database.js';
import { sentFields, unique } from '../domain/records.js';
import { toPattern } from '../mappers.js';
import {
  appendStep,
  componentIdsOfPatterns,
  deletePattern,
  findPattern,
  insertPattern,
  listPatterns,
  patternComponents,
  updatePattern,
} from '../repositories/patterns.js';
import { resolveRefs } from '../repositories/records.js';
import { NamedListQuery } from '../schemas/common.js';
import {
  PatternInputSchema,
  PatternResolvedSchema,
  PatternSchema,
  PatternUpdateSchema,
  StepInputSchema,
} from '../schemas/patterns.js';

export const patternRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  /** Patterns with their component ids: one query for the links of all of them. */
  const withComponents = async (rows: PatternRow[]) => {
    const components = await componentIdsOfPatterns(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toPattern(row, components.get(row.id) ?? []));
  };
  const shown = async (row: PatternRow) => (await withComponents([row]))[0];
  const componentIds = (refs: string[]) => resolveRefs(db, 'components', refs, 'component');

  app.get(
    '/patterns',
    {
      schema: {
        operationId: 'listPatterns',
        summary: 'List patterns by name',
        querystring: NamedListQuery,
        response: responses({ 200: Type.Array(PatternSchema) }),
      },
    },
    async (request) => {
      const { category, tag, limit, offset } = request.query;
      return ok(await withComponents(await listPatterns(db, { category, tag }, { limit, offset })));
    },
  );

  app.post(
    '/patterns',
    {
      schema: {
        operationId: 'createPattern',
        summary: 'Create a pattern',
        body: PatternInputSchema,
        response: responses({ 201: PatternSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const components = await componentIds(body.components ?? []);
      const row = await orConflict(
        insertPattern(
          db,
          {
            name: body.name,
            category: body.category ?? null,
            description: body.description ?? null,
            steps: [],
            tags: unique(body.tags ?? []),
          },
          components,
        ),
        nameTaken('Pattern', body.name),
      );
      return reply.code(201).send(ok(toPattern(row, components)));
    },
  );

  app.get(
    '/patterns/:idOrName',
    {
      schema: {
        operationId: 'getPattern',
        summary: 'Get a pattern with its components resolved',
        params: IdOrNameParams,
        response: responses({ 200: PatternResolvedSchema }),
      },
    },
    async (request) => {
      const row = await findPattern(db, request.params.idOrName);
      const components = await patternComponents(db, row);
      return ok({ ...(await shown(row)), resolved: { components } });
    },
  );

  app.put(
    '/patterns/:idOrName',
    {
      schema: {
        operationId: 'updatePattern',
        summary: 'Update a pattern',
        description:
          'Changes the fields sent; components, when sent, replaces the list (steps are added through /steps).',
        params: IdOrNameParams,
        body: PatternUpdateSchema,
        response: responses({ 200: PatternSchema }),
      },
    },
    async (request) => {
      const current = await findPattern(db, request.params.idOrName);
      const body = request.body;
      const components = body.components && (await componentIds(body.components));
      const changes = sentFields({
        name: body.name,
        category: body.category,
        description: body.description,
        tags: body.tags && unique(body.tags),
      });
      const row = await orConflict(
        updatePattern(db, current.id, changes, components),
        nameTaken('Pattern', body.name ?? current.name),
      );
      return ok(await shown(row));
    },
  );

  app.delete(
    '/patterns/:idOrName',
    {
      schema: {
        operationId: 'deletePattern',
        summary: 'Delete a pattern',
        params: IdOrNameParams,
        response: responses({ 200: PatternSchema }),
      },
    },
    async (request) => {
      const pattern = await shown(await findPattern(db, request.params.idOrName));
      await deletePattern(db, pattern.id);
      return ok(pattern);
    },
  );

  app.post(
    '/patterns/:idOrName/steps',
    {
      schema: {
        operationId: 'addPatternStep',
        summary: 'Append a step',
        description: 'Steps keep the order they were added in. Answers with the pattern.',
        params: IdOrNameParams,
        body: StepInputSchema,
        response: responses({ 201: PatternSchema }),
      },
    },
    async (request, reply) => {
      const current = await findPattern(db, request.params.idOrName);
      const { title, description, component } = request.body;
      const [componentId = null] = component ? await componentIds([component]) : [];
      const step = { title, description: description ?? null, component: componentId };
      return reply.code(201).send(ok(await shown(await appendStep(db, current.id, step))));
    },
  );
};

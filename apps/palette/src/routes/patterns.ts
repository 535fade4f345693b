import {
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
import type { PaletteDatabase, PatternRow } from '../database.js';
import {
  appendStep,
  deletePattern,
  findPattern,
  insertPattern,
  listPatterns,
  patternComponents,
  updatePattern,
  withComponents,
} from '../repositories/patterns.js';
import { findOwnership, resolveRefs } from '../repositories/records.js';
import { NamedListQuery, namedChanges, newNamedColumns } from '../schemas/common.js';
import {
  PatternInputSchema,
  PatternResolvedSchema,
  PatternSchema,
  PatternUpdateSchema,
  StepInputSchema,
  toPattern,
} from '../schemas/patterns.js';

export const patternRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads; members create patterns; their creator, their
  // team and admins change or delete them, and append their steps.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'patterns', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'palette.pattern', action: 'read' };
  const CREATE: Access = { resource: 'palette.pattern', action: 'create' };
  const UPDATE: Access = { resource: 'palette.pattern', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'palette.pattern', action: 'delete', rule: 'owner', owner };

  const shown = async (row: PatternRow) => toPattern((await withComponents(db, [row]))[0]);

  app.get(
    '/patterns',
    {
      config: { access: READ },
      schema: {
        operationId: 'listPatterns',
        summary: 'List patterns by name',
        querystring: NamedListQuery,
        response: responses({ 200: Type.Array(PatternSchema) }),
      },
    },
    async (request) => ok((await listPatterns(db, request.query)).map(toPattern)),
  );

  app.post(
    '/patterns',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createPattern',
        summary: 'Create a pattern',
        body: PatternInputSchema,
        response: responses({ 201: PatternSchema }),
      },
    },
    async (request, reply) => {
      const { components = [] } = request.body;
      const owned = await ownershipColumns(request.identity, request.body.team, access);
      const componentIds = await resolveRefs(db, 'components', components);
      const pattern = { ...owned, ...newNamedColumns(request.body), steps: [] };
      const insert = () => insertPattern(db, pattern, componentIds);
      const row = await orConflict(insert, nameTaken('Pattern', request.body.name));
      return reply.code(201).send(ok(toPattern({ ...row, components: componentIds })));
    },
  );

  app.get(
    '/patterns/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getPattern',
        summary: 'Get a pattern with its components resolved',
        params: IdOrNameParams,
        response: responses({ 200: PatternResolvedSchema }),
      },
    },
    async (request) => {
      const row = await findPattern(db, request.params.idOrName);
      const pattern = await shown(row);
      return ok({ ...pattern, resolved: { components: await patternComponents(db, row) } });
    },
  );

  app.put(
    '/patterns/:idOrName',
    {
      config: { access: UPDATE },
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
      const { name, components } = request.body;
      const team = await teamChange(request.identity, request.body.team, access);
      const componentIds = components && (await resolveRefs(db, 'components', components));
      const changes = { ...namedChanges(request.body), team };
      const update = () => updatePattern(db, current.id, changes, componentIds);
      const row = await orConflict(update, nameTaken('Pattern', name ?? current.name));
      return ok(await shown(row));
    },
  );

  app.delete(
    '/patterns/:idOrName',
    {
      config: { access: DELETE },
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

  // A step is part of the pattern: its owners append them (UPDATE, as a PUT of it).
  app.post(
    '/patterns/:idOrName/steps',
    {
      config: { access: UPDATE },
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
      const [componentId = null] = component
        ? await resolveRefs(db, 'components', [component])
        : [];
      const step = { title, description: description ?? null, component: componentId };
      return reply.code(201).send(ok(await shown(await appendStep(db, current.id, step))));
    },
  );
};

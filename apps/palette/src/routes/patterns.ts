import { IdOrNameParams, ok, responses, type ServiceRoutes } from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { toRecord } from '../mappers.js';
import { namedRecordRoutes } from '../named-records.js';
import { appendStep, patternComponents } from '../repositories/patterns.js';
import { resolveRefs } from '../repositories/records.js';
import { NamedListQuery } from '../schemas/common.js';
import {
  PatternInputSchema,
  PatternResolvedSchema,
  PatternSchema,
  StepInputSchema,
} from '../schemas/patterns.js';

export const patternRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  const { find, shown, CHANGE } = namedRecordRoutes(
    app,
    { db, access },
    {
      table: 'patterns',
      path: '/patterns',
      resource: 'Pattern',
      schemas: { Input: PatternInputSchema, Record: PatternSchema, ListQuery: NamedListQuery },
      toApi: (row, components) => ({ ...toRecord(row), components }),
      defaults: { steps: [] },
      get: {
        summary: 'with its components resolved',
        schema: PatternResolvedSchema,
        extra: async (row) => ({ resolved: { components: await patternComponents(db, row) } }),
      },
      update: {
        description:
          'Changes the fields sent; components, when sent, replaces the list (steps are added through /steps).',
      },
    },
  );

  // A step is part of the pattern: its owners append them (CHANGE, as a PUT of it).
  app.post(
    '/patterns/:idOrName/steps',
    {
      config: { access: CHANGE },
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
      const current = await find(request.params.idOrName);
      const { title, description, component } = request.body;
      const [componentId = null] = component
        ? await resolveRefs(db, 'components', [component])
        : [];
      const step = { title, description: description ?? null, component: componentId };
      return reply.code(201).send(ok(await shown(await appendStep(db, current.id, step))));
    },
  );
};

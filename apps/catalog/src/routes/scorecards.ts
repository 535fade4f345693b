import {
  badRequest,
  creatorOf,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  PagedQuery,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { CatalogRoutes } from '../domain/state.js';
import { checkScorecard } from '../domain/scorecards/check.js';
import { MAX_SCORECARDS } from '../domain/scorecards/evaluate.js';
import { forReader } from '../domain/scorecards/readers.js';
import type { LevelSpec, RuleSpec } from '../domain/scorecards/rules.js';
import {
  countScorecards,
  deleteScorecard,
  findScorecard,
  insertScorecard,
  listResults,
  listScorecards,
  updateScorecard,
} from '../repositories/scorecards.js';
import {
  ResultListQuery,
  ResultSchema,
  ScorecardInputSchema,
  ScorecardSchema,
  ScorecardUpdateSchema,
  toResult,
  toScorecard,
} from '../schemas/scorecards.js';

/** Scorecards (issue 39): admins define them, everyone signed in reads them and their results. */
export const scorecardRoutes: CatalogRoutes = async (app, { db, state, auth }) => {
  const READ: Access = { resource: 'catalog.scorecard', action: 'read' };
  const CREATE: Access = { resource: 'catalog.scorecard', action: 'create', rule: 'admin' };
  const UPDATE: Access = { resource: 'catalog.scorecard', action: 'update', rule: 'admin' };
  const DELETE: Access = { resource: 'catalog.scorecard', action: 'delete', rule: 'admin' };

  app.get(
    '/scorecards',
    {
      config: { access: READ },
      schema: {
        operationId: 'listScorecards',
        summary: 'List scorecards by name',
        querystring: PagedQuery({}),
        response: responses({ 200: Type.Array(ScorecardSchema) }),
      },
    },
    async (request) => ok((await listScorecards(db, request.query)).map(toScorecard)),
  );

  app.post(
    '/scorecards',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createScorecard',
        summary: 'Define a scorecard (admins)',
        description: `Rules of fixed kinds with their parameters, and ordered levels each requiring some of them (README: Scorecards). Every service is evaluated on it at once (a durable job), then at each change and periodically. At most ${MAX_SCORECARDS} scorecards (400 beyond).`,
        body: ScorecardInputSchema,
        response: responses({ 201: ScorecardSchema }),
      },
    },
    async (request, reply) => {
      const { name, description, rules, levels } = request.body;
      checkScorecard(rules as RuleSpec[], levels);
      if ((await countScorecards(db)) >= MAX_SCORECARDS)
        throw badRequest(
          `There are ${MAX_SCORECARDS} scorecards already, the most there may be (each is evaluated for every service): remove one first`,
        );
      const row = await orConflict(
        () =>
          insertScorecard(db, {
            id: newId(),
            name,
            description: description ?? null,
            rules,
            levels,
            created_by: creatorOf(request.identity),
          }),
        nameTaken('Scorecard', name),
      );
      await state.scorecards.scorecardChanged(row.id);
      return reply.code(201).send(ok(toScorecard(row)));
    },
  );

  app.get(
    '/scorecards/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getScorecard',
        summary: 'Get a scorecard (by id, then by name)',
        params: IdOrNameParams,
        response: responses({ 200: ScorecardSchema }),
      },
    },
    async (request) => ok(toScorecard(await findScorecard(db, request.params.idOrName))),
  );

  app.put(
    '/scorecards/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateScorecard',
        summary: 'Change a scorecard (admins)',
        description:
          'Changes the fields sent (rules and levels replace them whole, and must fit together); every service is evaluated on it again.',
        params: IdOrNameParams,
        body: ScorecardUpdateSchema,
        response: responses({ 200: ScorecardSchema }),
      },
    },
    async (request) => {
      const found = await findScorecard(db, request.params.idOrName);
      const { name, description, rules, levels } = request.body;
      checkScorecard((rules ?? found.rules) as RuleSpec[], (levels ?? found.levels) as LevelSpec[]);
      const update = () => updateScorecard(db, found.id, { name, description, rules, levels });
      const row = await (name === undefined
        ? update()
        : orConflict(update, nameTaken('Scorecard', name)));
      await state.scorecards.scorecardChanged(row.id);
      return ok(toScorecard(row));
    },
  );

  app.delete(
    '/scorecards/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteScorecard',
        summary: 'Remove a scorecard and its results (admins)',
        params: IdOrNameParams,
        response: responses({ 200: ScorecardSchema }),
      },
    },
    async (request) => {
      const found = await findScorecard(db, request.params.idOrName);
      await deleteScorecard(db, found.id);
      return ok(toScorecard(found));
    },
  );

  app.get(
    '/scorecards/:idOrName/results',
    {
      config: { access: READ },
      schema: {
        operationId: 'listScorecardResults',
        summary: "A scorecard's results, by service name",
        description:
          "Each service's level, and each rule's status (pass, fail, unknown) and why, as of its last evaluation; the why of a rule reading another service (git, billing) is replaced by the caller's refusal there when the caller may not read it. Filters: level (a level's name, or none), service (id or name), rule with status (default fail).",
        params: IdOrNameParams,
        querystring: ResultListQuery,
        response: responses({ 200: Type.Array(ResultSchema) }),
      },
    },
    async (request) => {
      const { rule, status } = request.query;
      if (status !== undefined && rule === undefined)
        throw badRequest('status filters by a rule: send rule too');
      const found = await findScorecard(db, request.params.idOrName);
      const results = (await listResults(db, found.id, request.query)).map(toResult);
      return ok(forReader(results, request.identity, auth.enabled));
    },
  );
};

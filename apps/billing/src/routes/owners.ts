import {
  creatorOf,
  newId,
  notFound,
  ok,
  responses,
  Type,
  type Access,
  type Identity,
} from '@platform/core';
import { catalogLookup, catalogState, refreshCatalog, requireTeamOf } from '../domain/owners.js';
import { changeOwnerRule, requireMoves, teamsOf, type RuleChange } from '../domain/owners-rules.js';
import type { BillingRoutes } from '../domain/state.js';
import {
  catalogServicesById,
  deleteOwnerRule,
  findCatalogService,
  findOwnerRule,
  insertOwnerRule,
  listOwnerRules,
  nextPriority,
  teamOfService,
  updateOwnerRule,
  type OwnerRuleRow,
} from '../repositories/owners.js';
import type { Move } from '../repositories/owners-resolve.js';
import {
  CatalogSnapshotSchema,
  checkConditions,
  conditionColumns,
  newConditions,
  OwnerRuleInputSchema,
  OwnerRuleListQuery,
  OwnerRuleSchema,
  OwnerRuleUpdateSchema,
  RuleParams,
  toOwnerRule,
} from '../schemas/owners.js';

const RESOLUTION =
  'Items resolve to the target of the first rule they match (by priority, then id), else to the catalog service whose id or name is their service (any case), else to none (unmatched).';
const WRITTEN = Type.Object({
  ...OwnerRuleSchema.properties,
  itemsChanged: Type.Integer({ description: 'Items whose catalog service changed' }),
});

/** Owner rules (items to catalog services) and billing's snapshot of the catalog. */
export const ownerRoutes: BillingRoutes = async (app, { db, platform, access, log }) => {
  // Shared knowledge: any signed-in caller reads the rules. Members make them, for a target
  // whose team they are in; the members of the team owning a rule's target (and admins) change
  // and remove it. No change may move spend from or to another team's services (requireMoves).
  const owner: Access['owner'] = async (request) => {
    const id = (request.params as { id?: unknown }).id;
    const rule = typeof id === 'string' ? await findOwnerRule(db, id) : undefined;
    return rule && { createdBy: null, team: await teamOfService(db, rule.target) };
  };
  const READ: Access = { resource: 'billing.owner-rule', action: 'read' };
  const CREATE: Access = { resource: 'billing.owner-rule', action: 'create' };
  const UPDATE: Access = { resource: 'billing.owner-rule', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'billing.owner-rule', action: 'delete', rule: 'owner', owner };
  const SNAPSHOT: Access = { resource: 'billing.catalog-snapshot', action: 'read' };
  const REFRESH: Access = { resource: 'billing.catalog-snapshot', action: 'manage', rule: 'admin' };

  const shown = async (rows: OwnerRuleRow[]) => {
    const known = await catalogServicesById(db, [...new Set(rows.map((r) => r.target))]);
    return rows.map((row) => toOwnerRule(row, known.get(row.target)));
  };
  const find = async (id: string) => {
    const row = await findOwnerRule(db, id);
    if (!row) throw notFound('Owner rule', id);
    return row;
  };
  /** Writes a rule change, re-resolving the items it can move, refused if it moves others' spend. */
  const written = async (
    identity: Identity,
    declared: Access,
    change: Omit<RuleChange, 'check'>,
  ) => {
    const inTeam = await teamsOf(identity, access);
    const check = (moves: Move[]) => requireMoves(identity, declared, moves, inTeam);
    const { row, changed } = await changeOwnerRule(db, { ...change, check });
    if (!row) throw notFound('Owner rule', change.id);
    return { ...(await shown([row]))[0], itemsChanged: changed };
  };
  const lookup = () => catalogLookup(db, platform, log);

  app.get(
    '/owner-rules',
    {
      config: { access: READ },
      schema: {
        operationId: 'listOwnerRules',
        summary: 'List owner rules in the order they apply',
        description: `${RESOLUTION} GET /catalog-snapshot tells how fresh the catalog snapshot is.`,
        querystring: OwnerRuleListQuery,
        response: responses({ 200: Type.Array(OwnerRuleSchema) }),
      },
    },
    async ({ query }) => {
      const target =
        query.target && ((await findCatalogService(db, query.target))?.id ?? query.target);
      return ok(await shown(await listOwnerRules(db, { ...query, target }, query)));
    },
  );

  app.post(
    '/owner-rules',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createOwnerRule',
        summary: 'Map items to a catalog service',
        description: `Items meeting every condition given resolve to target. ${RESOLUTION} A target the catalog snapshot lacks makes billing read the catalog again; an unknown one is a 400. Members may, for a target whose team they are in (admins any); a rule moving spend from or to another team's catalog services is a 403 naming that team. The items it can move are resolved again at once.`,
        body: OwnerRuleInputSchema,
        response: responses({ 201: WRITTEN }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const columns = newConditions(body);
      checkConditions(columns);
      const target = await lookup()(body.target, 'target');
      await requireTeamOf(request.identity, access, CREATE, target);
      const rule = await written(request.identity, CREATE, {
        write: async (trx) =>
          insertOwnerRule(trx, {
            ...columns,
            id: newId(),
            priority: body.priority ?? (await nextPriority(trx, 'owner_rules')),
            target: target.id,
            description: body.description ?? null,
            created_by: creatorOf(request.identity),
            team: target.owner,
          }),
      });
      return reply.code(201).send(ok(rule));
    },
  );

  app.get(
    '/owner-rules/:id',
    {
      config: { access: READ },
      schema: {
        operationId: 'getOwnerRule',
        summary: 'Get an owner rule',
        description:
          'Its conditions and target (named from the catalog snapshot; name null once gone).',
        params: RuleParams,
        response: responses({ 200: OwnerRuleSchema }),
      },
    },
    async (request) => ok((await shown([await find(request.params.id)]))[0]),
  );

  app.put(
    '/owner-rules/:id',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateOwnerRule',
        summary: 'Change an owner rule',
        description:
          "Changes the fields sent (null clears a condition; one must remain). The members of the team owning its target (and admins) may; a new target must be a catalog service whose team the caller is in, and a change moving spend from or to another team's catalog services is a 403 naming that team. The items it can move are resolved again (none when only the description changes).",
        params: RuleParams,
        body: OwnerRuleUpdateSchema,
        response: responses({ 200: WRITTEN }),
      },
    },
    async (request) => {
      const { body } = request;
      const { id } = request.params;
      const conditions = conditionColumns(body);
      let target: { target: string; team: string | null } | undefined;
      if (body.target !== undefined) {
        const found = await lookup()(body.target, 'target');
        if (found.id !== (await find(id)).target)
          await requireTeamOf(request.identity, access, UPDATE, found);
        target = { target: found.id, team: found.owner };
      }
      return ok(
        await written(request.identity, UPDATE, {
          id,
          write: (trx, current) => {
            checkConditions({ ...current!, ...stripUndefined(conditions) });
            const changes = { ...conditions, ...target, priority: body.priority };
            return updateOwnerRule(trx, id, { ...changes, description: body.description });
          },
        }),
      );
    },
  );

  app.delete(
    '/owner-rules/:id',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteOwnerRule',
        summary: 'Remove an owner rule',
        description:
          "Answers with the removed rule. The items it can move are resolved again; a 403 when they would move to another team's catalog services.",
        params: RuleParams,
        response: responses({ 200: WRITTEN }),
      },
    },
    async (request) => {
      const { id } = request.params;
      return ok(
        await written(request.identity, DELETE, {
          id,
          remove: true,
          write: (trx) => deleteOwnerRule(trx, id),
        }),
      );
    },
  );

  app.get(
    '/catalog-snapshot',
    {
      config: { access: SNAPSHOT },
      schema: {
        operationId: 'getCatalogSnapshot',
        summary: "Billing's copy of the catalog",
        description:
          'When the catalog services items resolve to were last fetched, and whether the last attempt failed (stale: the catalog is off or unreachable, and the last snapshot is used).',
        response: responses({ 200: CatalogSnapshotSchema }),
      },
    },
    async () => ok(await catalogState(db)),
  );

  app.post(
    '/catalog-snapshot/refresh',
    {
      config: { access: REFRESH },
      schema: {
        operationId: 'refreshCatalogSnapshot',
        summary: 'Read the catalog again now',
        description:
          'Admins: fetches the catalog services and re-resolves the items that the services which changed can move (the periodic job does the same). When the catalog cannot be read, the snapshot stays and the answer says why (stale, error).',
        response: responses({
          200: Type.Object({
            ...CatalogSnapshotSchema.properties,
            itemsChanged: Type.Integer(),
          }),
        }),
      },
    },
    async () => {
      const outcome = await refreshCatalog(db, platform, log);
      return ok({ ...(await catalogState(db)), itemsChanged: outcome.resolved });
    },
  );
};

/** The fields that are set. */
const stripUndefined = <T extends object>(row: T) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined)) as Partial<T>;

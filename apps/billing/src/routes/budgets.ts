import {
  findByIdOrName,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  ownershipColumns,
  responses,
  teamChange,
  Type,
  type Access,
} from '@platform/core';
import type { BudgetRow } from '../database.js';
import { checkChannel, checkFilter, normalizeFilter } from '../domain/budgets-checks.js';
import { periodOf, today } from '../domain/forecast.js';
import type { BillingRoutes } from '../domain/state.js';
import {
  budgetAlerts,
  deleteBudget,
  findBudgetOwnership,
  insertBudget,
  listBudgets,
  updateBudget,
} from '../repositories/budgets.js';
import {
  BudgetInputSchema,
  BudgetListQuery,
  BudgetSchema,
  BudgetUpdateSchema,
  EvaluationSchema,
  toBudget,
  type BudgetInput,
} from '../schemas/budgets.js';

/** The filter columns of a body's filter (an empty filter counts all spend). */
const filterColumns = (filter: BudgetInput['filter']) =>
  filter === undefined
    ? {}
    : {
        filter_owner: filter.owner ?? null,
        filter_service: filter.service ?? null,
        filter_provider: filter.provider ?? null,
        filter_tag: filter.tag ?? null,
      };

export const budgetRoutes: BillingRoutes = async (app, ctx) => {
  const { db, config, platform, access, state, log } = ctx;
  // Budgets are shared knowledge: any signed-in caller reads them; members make them; their
  // creator, their team and admins change or delete them.
  const owner: Access['owner'] = (request) =>
    findBudgetOwnership(db, (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'billing.budget', action: 'read' };
  const CREATE: Access = { resource: 'billing.budget', action: 'create' };
  const UPDATE: Access = { resource: 'billing.budget', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'billing.budget', action: 'delete', rule: 'owner', owner };
  const EVALUATE: Access = { resource: 'billing.budget', action: 'manage', rule: 'member' };
  const find = (idOrName: string) => findByIdOrName(db, 'budgets', idOrName, 'Budget');
  /** Budgets as the API shows them: their stored figures, and their alerts (one query). */
  async function present(rows: BudgetRow[]) {
    const periods = rows.map((r) => r.figures?.period ?? periodOf(r.period, today()).key);
    const alerts = await budgetAlerts(db, rows, [...new Set(periods)]);
    return rows.map((row) => toBudget(row, alerts));
  }
  /** A budget created or changed, evaluated at once, as it is now. */
  async function evaluated(row: BudgetRow) {
    await state.alerts.evaluate([row]);
    return (await present([await find(row.id)]))[0];
  }
  const channelOf = (ref: string, identity: Parameters<typeof checkChannel>[2]) =>
    checkChannel(ctx, ref, identity, access.authOn);

  app.get(
    '/budgets',
    {
      config: { access: READ },
      schema: {
        operationId: 'listBudgets',
        summary: 'List budgets by name',
        description:
          'Each with its spend this period, its forecast for the period end and its status as its last evaluation found them (`evaluatedAt`), and its alerts. `service` and `owner` find the budgets whose filter names that catalog service (id or name) or owner. Computes no spend: two queries for any page.',
        querystring: BudgetListQuery,
        response: responses({ 200: Type.Array(BudgetSchema) }),
      },
    },
    async ({ query }) => ok(await present(await listBudgets(db, query, query))),
  );

  app.post(
    '/budgets',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createBudget',
        summary: 'Create a budget',
        description:
          "An amount in cents per UTC month, quarter or year, of the spend its filter matches, with thresholds (percentages) whose alerts go to a communication channel (checked: 400 when communication has no such channel, 503 when it cannot say; 403 unless the app billing is registered on it or the caller is an admin, whose request registers it). A filter's catalog service or owner unknown to billing's copy of the catalog is a 400; its provider is stored in lower case. The budget is evaluated at once (its figures and the alerts it calls for).",
        body: BudgetInputSchema,
        response: responses({ 201: BudgetSchema }),
      },
    },
    async (request, reply) => {
      const { name, amount, period, thresholds, team } = request.body;
      const filter = normalizeFilter(request.body.filter ?? {});
      const owned = await ownershipColumns(request.identity, team, access);
      await checkFilter(db, platform, log, filter);
      const channel = await channelOf(request.body.channel, request.identity);
      const columns = {
        id: newId(12),
        name,
        amount,
        currency: config.currency,
        period,
        ...filterColumns(filter),
        thresholds: [...thresholds].sort((a, b) => a - b),
        channel: channel.id,
        channel_name: channel.name,
        ...owned,
      };
      const row = await orConflict(() => insertBudget(db, columns), nameTaken('Budget', name));
      return reply.code(201).send(ok(await evaluated(row)));
    },
  );

  app.post(
    '/budgets/evaluate',
    {
      config: { access: EVALUATE },
      schema: {
        operationId: 'evaluateBudgets',
        summary: 'Evaluate the budgets now',
        description:
          'What the periodic job does (BILLING_BUDGET_INTERVAL_MS), in this instance, now: every budget evaluated (one spend query per distinct filter) and its figures stored, each threshold newly crossed claimed (once per budget, period, threshold and basis, whichever instance evaluates), alerts no longer current expired, and the alerts due sent and recorded.',
        response: responses({ 200: EvaluationSchema }),
      },
    },
    async () => ok(await state.alerts.budgets()),
  );

  app.get(
    '/budgets/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getBudget',
        summary: 'Get a budget',
        params: IdOrNameParams,
        response: responses({ 200: BudgetSchema }),
      },
    },
    async (request) => ok((await present([await find(request.params.idOrName)]))[0]),
  );

  app.put(
    '/budgets/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateBudget',
        summary: 'Update a budget',
        description:
          'Changes the fields sent; `filter`, when sent, replaces the filter (checked as on create). A new channel is checked as on create (the one it has, by id or name, is no change), and takes over the alerts still pending. Alerts already claimed in this period stay claimed. The budget is evaluated at once. Its creator, its team and admins may.',
        params: IdOrNameParams,
        body: BudgetUpdateSchema,
        response: responses({ 200: BudgetSchema }),
      },
    },
    async (request) => {
      const current = await find(request.params.idOrName);
      const { name, amount, period, thresholds } = request.body;
      const filter = request.body.filter && normalizeFilter(request.body.filter);
      const team = await teamChange(request.identity, request.body.team, access);
      if (filter) await checkFilter(db, platform, log, filter);
      // The channel it has (by id, or by the name it had when checked) is no change.
      const ref = request.body.channel;
      const same = (known: string | null) => !!known && known.toLowerCase() === ref?.toLowerCase();
      const channel =
        ref === undefined || same(current.channel) || same(current.channel_name)
          ? undefined
          : await channelOf(ref, request.identity);
      const changes = {
        name,
        amount,
        period,
        ...filterColumns(filter),
        thresholds: thresholds && [...thresholds].sort((a, b) => a - b),
        ...(channel ? { channel: channel.id, channel_name: channel.name } : {}),
        team,
      };
      const update = () => updateBudget(db, current.id, changes);
      const row = await orConflict(update, nameTaken('Budget', name ?? current.name));
      return ok(await evaluated(row));
    },
  );

  app.delete(
    '/budgets/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteBudget',
        summary: 'Delete a budget',
        description:
          'Answers with the budget as it was. Its alerts go with it (the ledger keeps those recorded).',
        params: IdOrNameParams,
        response: responses({ 200: BudgetSchema }),
      },
    },
    async (request) => {
      const row = await find(request.params.idOrName);
      const [shown] = await present([row]);
      await deleteBudget(db, row.id);
      return ok(shown);
    },
  );
};

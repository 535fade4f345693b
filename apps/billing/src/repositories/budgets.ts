import type { Ownership } from '@platform/core';
import {
  jsonb,
  selectByIdOrName,
  sql,
  type Insertable,
  type RawBuilder,
  type Updateable,
} from '@platform/db';
import type {
  AlertRow,
  BillingDb,
  BudgetFigures,
  BudgetRow,
  BudgetsTable,
  Page,
} from '../database.js';

export type NewBudget = Insertable<BudgetsTable>;
export type BudgetChanges = Omit<
  Updateable<BudgetsTable>,
  'id' | 'created_by' | 'created_at' | 'figures' | 'status' | 'evaluated_at'
>;

/** What a list of budgets may filter by: budgets whose filter names this service or owner. */
export interface BudgetListFilter {
  service?: string;
  owner?: string;
}

/**
 * A page of budgets by name. `service` matches a budget whose filter names it, by id or name in
 * any case, either way round (through billing's copy of the catalog's services).
 */
export function listBudgets(db: BillingDb, filter: BudgetListFilter, page: Page) {
  let query = db.selectFrom('budgets').selectAll();
  if (filter.service !== undefined) {
    const wanted = filter.service.toLowerCase();
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(filter_service)`, '=', wanted),
        eb(
          sql`lower(filter_service)`,
          'in',
          eb
            .selectFrom('catalog_services')
            .select(sql<string>`lower(name)`.as('n'))
            .where(sql<boolean>`lower(id) = ${wanted} or lower(name) = ${wanted}`)
            .unionAll(
              eb
                .selectFrom('catalog_services')
                .select(sql<string>`lower(id)`.as('n'))
                .where(sql<boolean>`lower(id) = ${wanted} or lower(name) = ${wanted}`),
            ),
        ),
      ]),
    );
  }
  if (filter.owner !== undefined)
    query = query.where(sql<boolean>`lower(filter_owner) = ${filter.owner.toLowerCase()}`);
  return query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Every budget (the evaluation reads them all). */
export const allBudgets = (db: BillingDb) =>
  db.selectFrom('budgets').selectAll().orderBy('id').execute();

/** Who owns the budget with this id, else this name (what the `owner` rule asks). */
export async function findBudgetOwnership(
  db: BillingDb,
  idOrName: unknown,
): Promise<Ownership | undefined> {
  if (typeof idOrName !== 'string' || idOrName === '') return undefined;
  const row = await selectByIdOrName(db, 'budgets', idOrName);
  return row && { createdBy: row.created_by, team: row.team };
}

export function insertBudget(db: BillingDb, budget: NewBudget) {
  return db
    .insertInto('budgets')
    .values({ ...budget, thresholds: jsonb(budget.thresholds) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Changes the fields given. A new channel is also the channel of the budget's alerts still
 * pending (they go where the budget now says), in the same transaction.
 */
export function updateBudget(db: BillingDb, id: string, changes: BudgetChanges) {
  return db.transaction().execute(async (trx) => {
    const { thresholds, ...rest } = changes;
    const row = await trx
      .updateTable('budgets')
      .set({
        ...rest,
        ...(thresholds === undefined ? {} : { thresholds: jsonb(thresholds) }),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (changes.channel !== undefined)
      await trx
        .updateTable('alerts')
        .set({ channel: changes.channel })
        .where('budget_id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    return row;
  });
}

/** Deletes a budget and its alerts (the ledger keeps their record). */
export async function deleteBudget(db: BillingDb, id: string): Promise<void> {
  await db.deleteFrom('budgets').where('id', '=', id).execute();
}

/** The alerts of these budgets in these periods, and those still pending, oldest first. */
export function budgetAlerts(
  db: BillingDb,
  budgets: ReadonlyArray<Pick<BudgetRow, 'id'>>,
  periods: string[],
) {
  if (budgets.length === 0) return Promise.resolve([] as AlertRow[]);
  return db
    .selectFrom('alerts')
    .selectAll()
    .where(
      'budget_id',
      'in',
      budgets.map((b) => b.id),
    )
    .where((eb) => eb.or([eb('period', 'in', periods), eb('status', '=', 'pending')]))
    .orderBy('created_at')
    .orderBy('threshold')
    .execute();
}

/** A budget's figures as an evaluation found them. */
export interface Evaluated {
  id: string;
  figures: BudgetFigures;
  status: BudgetRow['status'];
}

/**
 * Stores the figures of an evaluation made at `at` (500 budgets a statement), unless a later
 * evaluation stored its own already (two instances at once: the later one's figures stay).
 */
export async function storeFigures(db: BillingDb, evaluated: Evaluated[], at: Date) {
  for (let i = 0; i < evaluated.length; i += 500) {
    const chunk = evaluated.slice(i, i + 500);
    const byId = (value: (e: Evaluated) => RawBuilder<unknown>) =>
      sql`case id ${sql.join(
        chunk.map((e) => sql`when ${e.id} then ${value(e)}`),
        sql` `,
      )} end`;
    await db
      .updateTable('budgets')
      .set({
        figures: byId((e) => sql`${jsonb(e.figures)}::jsonb`) as RawBuilder<BudgetFigures>,
        status: byId((e) => sql`${e.status}::text`) as RawBuilder<BudgetRow['status']>,
        evaluated_at: at,
      })
      .where(
        'id',
        'in',
        chunk.map((e) => e.id),
      )
      .where((eb) => eb.or([eb('evaluated_at', 'is', null), eb('evaluated_at', '<=', at)]))
      .execute();
  }
}

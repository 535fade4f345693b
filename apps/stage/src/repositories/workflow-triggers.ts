import { sql } from '@platform/db';
import type { StageDb } from '../database/index.js';

// The webhook URLs of workflows (their sealed secrets) and the schedule ticks fired
// (domain/workflows/triggers-run.ts).

/** The workflow's webhook, made with this token and sealed secret unless it exists. */
export async function ensureWebhook(
  db: StageDb,
  appSid: string,
  workflow: string,
  made: { token: string; secret: string },
) {
  await db
    .insertInto('workflow_webhooks')
    .values({ app_sid: appSid, workflow, ...made })
    .onConflict((oc) => oc.columns(['app_sid', 'workflow']).doNothing())
    .execute();
  return db
    .selectFrom('workflow_webhooks')
    .selectAll()
    .where('app_sid', '=', appSid)
    .where('workflow', '=', workflow)
    .executeTakeFirstOrThrow();
}

/** The webhook whose token has this SHA-256 (the `token` column holds the hash, not the token). */
export function findWebhook(db: StageDb, tokenHash: string) {
  return db
    .selectFrom('workflow_webhooks')
    .selectAll()
    .where('token', '=', tokenHash)
    .executeTakeFirst();
}

/** The last tick of a schedule trigger that fired. */
export async function lastTick(db: StageDb, appSid: string, workflow: string, trigger: number) {
  const row = await db
    .selectFrom('workflow_ticks')
    .select((eb) => eb.fn.max('tick_at').as('last'))
    .where('app_sid', '=', appSid)
    .where('workflow', '=', workflow)
    .where('trigger', '=', trigger)
    .executeTakeFirst();
  return row?.last ? new Date(row.last) : null;
}

/** Claims one tick: true for the one caller (of any instance) that inserted it. */
export async function claimTick(
  db: StageDb,
  appSid: string,
  workflow: string,
  trigger: number,
  tickAt: Date,
) {
  const inserted = await db
    .insertInto('workflow_ticks')
    .values({ app_sid: appSid, workflow, trigger, tick_at: tickAt })
    .onConflict((oc) => oc.doNothing())
    .returning('tick_at')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function recordTickRun(
  db: StageDb,
  tick: { appSid: string; workflow: string; trigger: number; tickAt: Date },
  runId: string,
) {
  return db
    .updateTable('workflow_ticks')
    .set({ run_id: runId })
    .where('app_sid', '=', tick.appSid)
    .where('workflow', '=', tick.workflow)
    .where('trigger', '=', tick.trigger)
    .where('tick_at', '=', tick.tickAt)
    .execute();
}

/** Ticks older than a day are forgotten (the last of each trigger is kept). */
export function pruneTicks(db: StageDb) {
  return db
    .deleteFrom('workflow_ticks as t')
    .where('t.tick_at', '<', sql<Date>`now() - interval '1 day'`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('workflow_ticks as n')
          .select('n.tick_at')
          .whereRef('n.app_sid', '=', 't.app_sid')
          .whereRef('n.workflow', '=', 't.workflow')
          .whereRef('n.trigger', '=', 't.trigger')
          .whereRef('n.tick_at', '>', 't.tick_at'),
      ),
    )
    .execute();
}

/** Every published app's sid, name and session (the schedule sweep reads their workflows). */
export function publishedApps(db: StageDb) {
  return db.selectFrom('apps').select(['sid', 'name', 'session_id']).orderBy('sid').execute();
}

/** A reader's cursor (`workflow_cursors`), or undefined before its first read. */
export async function readCursor(db: StageDb, name: string) {
  const row = await db
    .selectFrom('workflow_cursors')
    .select('cursor')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.cursor;
}

/** Sets a reader's cursor (made the first time), with the time of this read. */
export function moveCursor(db: StageDb, name: string, cursor: string) {
  return db
    .insertInto('workflow_cursors')
    .values({ name, cursor })
    .onConflict((oc) => oc.column('name').doUpdateSet({ cursor, updated_at: sql<Date>`now()` }))
    .execute();
}

/** Forgets a cursor: the next poll that needs it starts at the head again. */
export function forgetCursor(db: StageDb, name: string) {
  return db.deleteFrom('workflow_cursors').where('name', '=', name).execute();
}

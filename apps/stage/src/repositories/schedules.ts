import { jsonb, sql, type Updateable } from '@platform/db';
import type { StageDb } from '../database/index.js';
import type { AppScheduleRunsTable } from '../database/backends.js';
import type { Schedule, ScheduleDefinition } from '../domain/backends/schedule-config.js';

/** Key order ignored (jsonb keeps its own): whether a schedule changed. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Makes the app's schedules those given (its config.schedules): a new or changed schedule is due
 * at its next tick (`next`), an unchanged one keeps its own; a removed one goes, its runs too.
 */
export async function syncSchedules(
  db: StageDb,
  sid: string,
  schedules: Array<Schedule & { next: Date }>,
) {
  const names = schedules.map((s) => s.name);
  let gone = db.deleteFrom('app_schedules').where('app_sid', '=', sid);
  let goneRuns = db.deleteFrom('app_schedule_runs').where('app_sid', '=', sid);
  if (names.length > 0) {
    gone = gone.where('name', 'not in', names);
    goneRuns = goneRuns.where('schedule', 'not in', names);
  }
  await gone.execute();
  await goneRuns.execute();
  const existing = await db
    .selectFrom('app_schedules')
    .select(['name', 'definition'])
    .where('app_sid', '=', sid)
    .execute();
  const kept = new Map(existing.map((row) => [row.name, canonical(row.definition)]));
  for (const { name, definition, next } of schedules) {
    if (kept.get(name) === canonical(definition)) continue;
    await db
      .insertInto('app_schedules')
      .values({ app_sid: sid, name, definition: jsonb(definition), next_run_at: next })
      .onConflict((oc) =>
        oc.columns(['app_sid', 'name']).doUpdateSet({
          definition: jsonb(definition),
          next_run_at: next,
          updated_at: sql`now()`,
        }),
      )
      .execute();
  }
}

export interface DueSchedule {
  app_sid: string;
  name: string;
  definition: ScheduleDefinition;
  next_run_at: Date;
}

/** Schedules whose tick has come (by the database's clock), the most overdue first. */
export function dueSchedules(db: StageDb, limit: number): Promise<DueSchedule[]> {
  return db
    .selectFrom('app_schedules')
    .select(['app_sid', 'name', 'definition', 'next_run_at'])
    .where('next_run_at', '<=', sql<Date>`now()`)
    .orderBy('next_run_at')
    .limit(limit)
    .execute() as Promise<DueSchedule[]>;
}

/**
 * Moves a schedule from the tick `due` to `next`, if no one did since it was read: true for the
 * one caller (instance) that did, who runs the tick.
 */
export async function claimTick(db: StageDb, due: DueSchedule, next: Date): Promise<boolean> {
  const result = await db
    .updateTable('app_schedules')
    .set({ next_run_at: next })
    .where('app_sid', '=', due.app_sid)
    .where('name', '=', due.name)
    .where('next_run_at', '=', due.next_run_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function insertScheduleRun(
  db: StageDb,
  run: { id: string; app_sid: string; schedule: string; scheduled_at: Date },
) {
  return db
    .insertInto('app_schedule_runs')
    .values({ ...run, status: 'queued' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The run and its schedule's definition now (undefined when either is gone). */
export function findScheduleRun(db: StageDb, id: string) {
  return db
    .selectFrom('app_schedule_runs as r')
    .innerJoin('app_schedules as s', (join) =>
      join.onRef('s.app_sid', '=', 'r.app_sid').onRef('s.name', '=', 'r.schedule'),
    )
    .selectAll('r')
    .select('s.definition')
    .where('r.id', '=', id)
    .executeTakeFirst();
}

export function updateScheduleRun(
  db: StageDb,
  id: string,
  changes: Updateable<AppScheduleRunsTable>,
) {
  return db.updateTable('app_schedule_runs').set(changes).where('id', '=', id).execute();
}

/** Keeps the newest `keep` runs of one schedule. */
export async function pruneScheduleRuns(db: StageDb, sid: string, schedule: string, keep: number) {
  await db
    .deleteFrom('app_schedule_runs')
    .where('app_sid', '=', sid)
    .where('schedule', '=', schedule)
    .where('scheduled_at', '<=', (eb) =>
      eb
        .selectFrom('app_schedule_runs')
        .select('scheduled_at')
        .where('app_sid', '=', sid)
        .where('schedule', '=', schedule)
        .orderBy('scheduled_at', 'desc')
        .offset(keep)
        .limit(1),
    )
    .execute();
}

export function listSchedules(db: StageDb, sid: string) {
  return db
    .selectFrom('app_schedules')
    .select(['name', 'definition', 'next_run_at', 'updated_at'])
    .where('app_sid', '=', sid)
    .orderBy('name')
    .execute();
}

/** The newest `perSchedule` runs of each schedule of the app, newest first. */
export function recentScheduleRuns(db: StageDb, sid: string, perSchedule: number) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('app_schedule_runs')
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by schedule order by scheduled_at desc)`.as('n'),
        )
        .where('app_sid', '=', sid)
        .as('r'),
    )
    .selectAll()
    .where('n', '<=', perSchedule)
    .orderBy('scheduled_at', 'desc')
    .execute();
}

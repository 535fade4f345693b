import { ApiError, type ServiceContext } from '@platform/core';
import type { CatalogConfig } from '../../config.js';
import type { CatalogDatabase, Link } from '../../database.js';
import {
  clearPending,
  clearPendingBefore,
  jobWaiting,
  markChanged,
  markChangedOf,
  pendingPage,
  scoredServices,
  storeResults,
  type ScoredRow,
} from '../../repositories/scorecard-runs.js';
import { allScorecards, findScorecard } from '../../repositories/scorecards.js';
import type { Asking } from '../overview/peers.js';
import { repositories } from '../overview/sources.js';
import { billingOfAll, billingOfService, type BillingOf } from './billing.js';
import {
  evaluate,
  SOURCES,
  type Facts,
  type LevelSpec,
  type RuleSpec,
  type Source,
} from './rules.js';

type Ctx = ServiceContext<CatalogDatabase, CatalogConfig>;

/** Scorecards at most: each is evaluated for every service at every run. */
export const MAX_SCORECARDS = 50;
/** Services evaluated per page (one read, one write of results) in a run over all of them. */
const PAGE = 500;
/** Changed services evaluated per page: each asks billing for itself. */
const CHANGED_PAGE = 100;
/** Services whose repositories and billing are asked at once. */
const PARALLEL = 4;
/** Changes within this long of the first are evaluated by one job. */
const COALESCE_MS = 250;
const CHANGED_KIND = 'scorecards-changed';

/** What to evaluate: every service on that scorecard, or (none) on every scorecard. */
export interface EvaluationJob {
  scorecard?: string;
}

interface Spec {
  id: string;
  version: number;
  rules: RuleSpec[];
  levels: LevelSpec[];
}

/** The scorecards as they are now (all, or the one; none when it was removed). */
async function loadSpecs(ctx: Ctx, scorecard?: string): Promise<Spec[]> {
  let cards;
  try {
    cards = scorecard ? [await findScorecard(ctx.db, scorecard)] : await allScorecards(ctx.db);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return [];
    throw error;
  }
  return cards.map((c) => ({
    id: c.id,
    version: c.version,
    rules: c.rules as RuleSpec[],
    levels: c.levels as LevelSpec[],
  }));
}

const needsOf = (specs: readonly Spec[]) =>
  new Set(
    specs.flatMap((s) => s.rules.map((r) => SOURCES[r.kind]).filter((x): x is Source => !!x)),
  );

/** Runs `work` over the items, `n` at a time. */
async function pooled<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** Evaluates a page of services on the scorecards and writes what still applies. */
async function evaluatePage(
  ctx: Ctx,
  asking: Asking,
  specs: readonly Spec[],
  rows: readonly ScoredRow[],
  billingOf: BillingOf,
) {
  const needs = needsOf(specs);
  const facts = await pooled(rows, PARALLEL, async (row): Promise<Facts> => {
    const service = {
      ...row,
      links: row.links as Link[],
      annotations: row.annotations as Record<string, string>,
      updatedAt: row.updated_at,
    };
    const [repos, billing] = await Promise.all([
      needs.has('repositories') ? repositories(asking, service) : undefined,
      billingOf(row, needs),
    ]);
    return { service, repositories: repos, ...billing };
  });
  await storeResults(
    ctx.db,
    rows.flatMap((row, i) =>
      specs.map((spec) => ({
        scorecard_id: spec.id,
        service_id: row.id,
        version: spec.version,
        ...evaluate(spec, facts[i], row.read_at),
        evaluated_at: row.read_at,
      })),
    ),
  );
}

const askingOf = (ctx: Ctx): Asking => ({
  client: ctx.platform,
  authOn: ctx.auth.enabled,
  timeoutMs: ctx.config.overviewTimeoutMs,
  log: ctx.log,
});

/**
 * Evaluates every service, a page at a time, on the scorecard asked or on all, as the catalog
 * itself: the scorecards are read again for each page (one changed meanwhile is written by the
 * job its change queued), billing's lists once a run, git per service naming repositories.
 */
export async function runEvaluation(ctx: Ctx, job: EvaluationJob, signal?: AbortSignal) {
  const asking = askingOf(ctx);
  const billingOf = billingOfAll(asking);
  let after: string | null = null;
  let services = 0;
  let startedAt: Date | undefined;
  for (;;) {
    if (signal?.aborted) return { services, complete: false };
    const specs = await loadSpecs(ctx, job.scorecard);
    if (specs.length === 0) break;
    const rows: ScoredRow[] = await scoredServices(ctx.db, { after, limit: PAGE });
    startedAt ??= rows[0]?.read_at;
    await evaluatePage(ctx, asking, specs, rows, billingOf);
    services += rows.length;
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  // Everything evaluated on every scorecard: the changes marked before it began are covered.
  if (!job.scorecard && startedAt) await clearPendingBefore(ctx.db, startedAt);
  return { services, complete: true };
}

/** Evaluates the services marked changed, a page at a time, until none is left. */
export async function runChanged(ctx: Ctx, signal?: AbortSignal) {
  const asking = askingOf(ctx);
  const billingOf = billingOfService(asking);
  let services = 0;
  while (!signal?.aborted) {
    const pending = await pendingPage(ctx.db, CHANGED_PAGE);
    if (pending.length === 0) break;
    const specs = await loadSpecs(ctx);
    if (specs.length > 0) {
      const rows = await scoredServices(ctx.db, { ids: pending.map((p) => p.service_id) });
      await evaluatePage(ctx, asking, specs, rows, billingOf);
      services += rows.length;
    }
    await clearPending(ctx.db, pending);
  }
  return { services };
}

/**
 * The evaluations of an instance: changed services are marked in the database and one durable
 * job (queued COALESCE_MS after the first change, none queued while one waits) evaluates all
 * that are marked; a scorecard made or changed queues a job over every service; the periodic job
 * evaluates everything. Marking and queueing come after the change is committed, so they never
 * fail the request: a failure is logged, and the periodic run covers the change.
 */
export function scorecardEvaluations(ctx: Ctx) {
  const everything = ctx.jobs.define<EvaluationJob>({
    kind: 'scorecards-evaluate',
    maxAttempts: 3,
    handler: (payload, { signal }) => runEvaluation(ctx, payload, signal),
  });
  const changed = ctx.jobs.define<Record<string, never>>({
    kind: CHANGED_KIND,
    maxAttempts: 3,
    handler: (_payload, { signal }) => runChanged(ctx, signal),
  });
  const safely = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      ctx.log.error({ err: error }, `catalog: scorecards not evaluated now (${what})`);
    }
  };
  const marked = async (mark: () => Promise<number>) => {
    if ((await mark()) === 0) return; // no scorecard (or no such service): nothing to evaluate
    if (!(await jobWaiting(ctx.db, CHANGED_KIND)))
      await changed.enqueue({}, { runAt: new Date(Date.now() + COALESCE_MS) });
  };
  return {
    /** Services created or changed: each evaluated again within about a second. */
    servicesChanged: (ids: readonly string[]) =>
      safely('services changed', () => marked(() => markChanged(ctx.db, ids))),
    /** An owner or a system renamed: its services evaluated again. */
    groupChanged: (column: 'owner_id' | 'system_id', id: string) =>
      safely('group changed', () => marked(() => markChangedOf(ctx.db, column, id))),
    /** A scorecard made or changed: every service evaluated on it again. */
    scorecardChanged: (id: string) =>
      safely('scorecard changed', () => everything.enqueue({ scorecard: id })),
    /** Everything (the periodic job). */
    all: (signal?: AbortSignal) => runEvaluation(ctx, {}, signal),
  };
}

export type ScorecardEvaluations = ReturnType<typeof scorecardEvaluations>;

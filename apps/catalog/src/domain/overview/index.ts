import type { Identity } from '@platform/core';
import { neighbours, ownerOf } from '../../repositories/overview.js';
import { serviceResults } from '../../repositories/scorecards.js';
import { findService, getService } from '../../repositories/services.js';
import { toResult } from '../../schemas/scorecards.js';
import { toService } from '../../schemas/services.js';
import { forReader } from '../scorecards/readers.js';
import type { CatalogContext } from '../state.js';
import type { Asking } from './peers.js';
import { anomalies, audit, budgets, repositories, spend, usage } from './sources.js';

/**
 * A service's overview: its own record, owner, dependencies and scorecard results from the
 * catalog, and the parts the other services answer (billing, git, ledger, pulse), asked at once
 * for the caller (`platformFor`), each within CATALOG_OVERVIEW_TIMEOUT_MS and only when the
 * caller may read it directly; a part that cannot be had says why, and the rest answers.
 */
export async function overviewOf(ctx: CatalogContext, identity: Identity, idOrName: string) {
  const { db } = ctx;
  const row = await getService(db, (await findService(db, idOrName)).id);
  const service = toService(row);
  const asking: Asking = {
    client: ctx.platformFor(identity),
    caller: identity,
    authOn: ctx.auth.enabled,
    timeoutMs: ctx.config.overviewTimeoutMs,
    log: ctx.log,
  };
  const now = new Date();
  const subject = { id: row.id, name: row.name, links: row.links, annotations: row.annotations };
  const [owner, dependencies, results, ...parts] = await Promise.all([
    ownerOf(db, row.owner_id),
    neighbours(db, row.id),
    serviceResults(db, row.id),
    spend(asking, subject, now),
    budgets(asking, subject),
    anomalies(asking, subject),
    repositories(asking, subject),
    audit(asking, subject),
    usage(asking, subject, now),
  ]);
  const [spent, budgeted, anomalous, repos, audited, used] = parts;
  return {
    service,
    owner: owner ?? null,
    dependencies,
    spend: spent,
    budgets: budgeted,
    anomalies: anomalous,
    repositories: repos,
    audit: audited,
    usage: used,
    scorecards: forReader(results.map(toResult), identity, ctx.auth.enabled),
    generatedAt: now.toISOString(),
  };
}

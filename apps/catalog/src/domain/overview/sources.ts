import type { PlatformClient } from '@platform/client';
import { isPlatformError } from '@platform/core';
import { repositoryRefs, type LinkedService, type RepositoryRef } from './links.js';
import { ask, type Asking, type Part } from './peers.js';

/** The service a part is about: its id, its name and what names its repositories. */
export interface Subject extends LinkedService {
  id: string;
  name: string;
}

/** Days of usage the overview counts. */
export const USAGE_DAYS = 30;
/** The pulse event property that names the catalog service an event is about. */
export const USAGE_PROPERTY = 'service';
/** Audit events shown, newest first. */
export const AUDIT_EVENTS = 10;
const LIST = 1000;

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * This month so far (its first UTC day through today) and the same days of the month before (its
 * first day through the same day of the month, or its last day when it is shorter: March 31
 * compares with February 28 or 29).
 */
export function spendPeriods(now: Date) {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const lastOfPrevious = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const sameDay = Math.min(now.getUTCDate(), lastOfPrevious);
  return {
    current: { from: day(new Date(Date.UTC(y, m, 1))), to: day(now) },
    previous: {
      from: day(new Date(Date.UTC(y, m - 1, 1))),
      to: day(new Date(Date.UTC(y, m - 1, sameDay))),
    },
  };
}

/** The change from `previous` to `month`, in percent with one decimal; null when previous is 0. */
export const trendOf = (month: number, previous: number) =>
  previous === 0 ? null : Math.round(((month - previous) / previous) * 1000) / 10;

/** Spend resolved to the service (billing's `reportSummary` with `catalogService`), both periods. */
export function spend(asking: Asking, subject: Subject, now: Date) {
  const periods = spendPeriods(now);
  return ask(asking, 'billing', 'reportSummary', async (client, signal) => {
    const of = (range: { from: string; to: string }) =>
      client.billing.reportSummary({ query: { catalogService: subject.id, ...range }, signal });
    const [month, previous] = await Promise.all([of(periods.current), of(periods.previous)]);
    return {
      month: month.totalAmount,
      previous: previous.totalAmount,
      trend: trendOf(month.totalAmount, previous.totalAmount),
      currency: month.currency,
      period: periods.current,
      previousPeriod: periods.previous,
    };
  });
}

type Budget = Awaited<ReturnType<PlatformClient['billing']['listBudgets']>>[number];
type Anomaly = Awaited<ReturnType<PlatformClient['billing']['listAnomalies']>>[number];

export const toBudget = (b: Budget) => ({
  id: b.id,
  name: b.name,
  amount: b.amount,
  period: b.period,
  spent: b.spent,
  forecast: b.forecast,
  status: b.status,
});

export const toAnomaly = (a: Anomaly) => ({
  id: a.id,
  provider: a.provider,
  day: a.day,
  expected: a.expected,
  actual: a.actual,
  size: a.size,
  score: a.score,
  status: a.status,
});

/** The budgets whose filter names the service (billing's `listBudgets?service=`). */
export function budgets(asking: Asking, subject: Subject) {
  return ask(asking, 'billing', 'listBudgets', async (client, signal) => {
    const query = { service: subject.id, limit: LIST };
    return { items: (await client.billing.listBudgets({ query, signal })).map(toBudget) };
  });
}

/** The service's open anomalies (billing's `listAnomalies?service=&status=open`). */
export function anomalies(asking: Asking, subject: Subject) {
  return ask(asking, 'billing', 'listAnomalies', async (client, signal) => {
    const query = { service: subject.id, status: 'open' as const, limit: LIST };
    return { items: (await client.billing.listAnomalies({ query, signal })).map(toAnomaly) };
  });
}

const routeMissing = (error: unknown) =>
  isPlatformError(error) && error.status === 404 && error.message.startsWith('Route ');

/** One named repository as git knows it (connected or not), with its newest commit. */
async function repository(client: PlatformClient, ref: RepositoryRef, signal: AbortSignal) {
  const base = { fullName: ref.fullName, source: ref.source };
  let repo;
  try {
    repo = await client.git.getRepo({ path: { idOrName: ref.fullName }, signal });
  } catch (error) {
    // The repository is not connected; any other failure is the whole part's.
    if (isPlatformError(error) && error.status === 404 && !routeMissing(error))
      return {
        ...base,
        connected: false,
        id: null,
        htmlUrl: null,
        defaultBranch: null,
        status: null,
        lastCommit: null,
      };
    throw error;
  }
  const commits = await client.git
    .listCommits({ path: { id: repo.id }, query: { limit: 1 }, signal })
    .catch(() => []);
  const newest = commits[0];
  return {
    ...base,
    connected: true,
    id: repo.id,
    htmlUrl: repo.htmlUrl,
    defaultBranch: repo.defaultBranch,
    status: repo.status,
    lastCommit: newest
      ? { sha: newest.sha, message: newest.message.split('\n')[0], date: newest.committer.date }
      : null,
  };
}

export type Repository = Awaited<ReturnType<typeof repository>>;

/** The repositories the service names (links.ts), each looked up in git. */
export function repositories(asking: Asking, subject: Subject) {
  const refs = repositoryRefs(subject);
  return ask(asking, 'git', 'getRepo', async (client, signal) => ({
    items: await Promise.all(refs.map((ref) => repository(client, ref, signal))),
  }));
}

type LedgerEvent = {
  id: string;
  action: string;
  actor: string | null;
  resource: string | null;
  service: string | null;
  timestamp: string;
};

/**
 * The audit events about the service, newest first: any service's events whose resource is its
 * id, and the catalog's whose resource is its name as registered (the path said it by name).
 */
export function audit(asking: Asking, subject: Subject) {
  return ask(asking, 'ledger', 'listEvents', async (client, signal) => {
    const list = (query: { resource: string; service?: string }) =>
      client.ledger.listEvents({ query: { ...query, limit: AUDIT_EVENTS }, signal });
    const [byId, byName] = await Promise.all([
      list({ resource: subject.id }),
      list({ resource: subject.name, service: 'catalog' }),
    ]);
    const seen = new Set<string>();
    const items = [...byId, ...byName]
      .filter((e) => !seen.has(e.id) && seen.add(e.id))
      .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
      .slice(0, AUDIT_EVENTS)
      .map((e: LedgerEvent) => ({
        id: e.id,
        action: e.action,
        actor: e.actor,
        resource: e.resource,
        service: e.service,
        timestamp: e.timestamp,
      }));
    return { items };
  });
}

/** Pulse events of the last USAGE_DAYS whose `service` property is the service's name, by name. */
export function usage(asking: Asking, subject: Subject, now: Date) {
  const from = new Date(now.getTime() - USAGE_DAYS * 86_400_000).toISOString();
  return ask(asking, 'pulse', 'topEvents', async (client, signal) => {
    const top = await client.pulse.topEvents({
      signal,
      query: {
        from,
        to: now.toISOString(),
        property: USAGE_PROPERTY,
        value: subject.name,
        limit: LIST,
      },
    });
    return {
      property: USAGE_PROPERTY,
      from,
      to: now.toISOString(),
      total: top.reduce((sum, e) => sum + e.count, 0),
      events: top.slice(0, 10),
    };
  });
}

export type Parts = {
  spend: Awaited<ReturnType<typeof spend>>;
  budgets: Awaited<ReturnType<typeof budgets>>;
  anomalies: Awaited<ReturnType<typeof anomalies>>;
  repositories: Awaited<ReturnType<typeof repositories>>;
  audit: Awaited<ReturnType<typeof audit>>;
  usage: Awaited<ReturnType<typeof usage>>;
};
export type { Part };

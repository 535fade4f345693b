import type { FastifyBaseLogger } from 'fastify';
import type { InferenceDb, ProviderRow } from '../database.js';
import { coolDown, coolingProviders } from '../repositories/cooldowns.js';
import type { CallFailure } from './failures.js';
import type { Route } from './routing.js';

/**
 * The providers of a type that share its calls: those with a weight above 0, when any provider of
 * the type has a weight; undefined when none has (the oldest then serves alone, as before weights).
 */
export function poolOf(providers: readonly ProviderRow[], type: string) {
  const ofType = providers.filter((p) => p.type === type);
  if (!ofType.some((p) => p.weight !== null)) return undefined;
  return ofType.filter((p) => (p.weight ?? 0) > 0);
}

/** Weighted random order, without replacement: a provider of weight 3 leads three times as often. */
export function weightedOrder(pool: readonly ProviderRow[], random = Math.random): ProviderRow[] {
  const left = [...pool];
  const order: ProviderRow[] = [];
  while (left.length) {
    const total = left.reduce((sum, p) => sum + (p.weight ?? 0), 0);
    let pick = random() * total;
    let i = 0;
    while (i < left.length - 1 && (pick -= left[i].weight ?? 0) >= 0) i++;
    order.push(...left.splice(i, 1));
  }
  return order;
}

/**
 * Load balancing: a route served by a pool of providers becomes the pool's providers in weighted
 * random order, those cooling down left out (all of them kept, soonest back first, when every
 * one is cooling down); a provider that fails with a 429, a 5xx, an overload or no answer after
 * its attempts cools down for `cooldownMs`, in the database, so every instance skips it.
 */
export class Balancer {
  /** This instance's cool-downs not yet written: the next routing waits for them. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly db: InferenceDb,
    private readonly log: FastifyBaseLogger,
    private readonly cooldownMs: number,
  ) {}

  async expand(routes: Route[]): Promise<Route[]> {
    if (!routes.some((r) => r.pool && r.pool.length > 1)) return routes;
    for (const write of [...this.writing]) await write;
    const cooling = await coolingProviders(this.db);
    return routes.flatMap((route) => {
      if (!route.pool || route.pool.length < 2) return [route];
      const healthy = route.pool.filter((p) => !cooling.has(p.id));
      const order = healthy.length
        ? weightedOrder(healthy)
        : [...route.pool].sort((a, b) => +cooling.get(a.id)! - +cooling.get(b.id)!);
      return order.map((provider) => ({ ...route, provider, pool: undefined, pooled: true }));
    });
  }

  failed(route: Route, failure: CallFailure) {
    if (this.cooldownMs <= 0) return;
    const write = coolDown(
      this.db,
      route.provider.id,
      this.cooldownMs,
      failure.message.slice(0, 300),
    ).catch((error: unknown) =>
      this.log.error({ err: error, provider: route.provider.name }, 'inference: cool-down lost'),
    );
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
  }
}

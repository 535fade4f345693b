import { badRequest, describeIdentity, ok, responses, type Access } from '@platform/core';
import { existingKey, keyOfRequest } from '../domain/key-owners.js';
import { secondsLeft, type Period } from '../domain/limits.js';
import type { InferenceRoutes } from '../domain/state.js';
import { currentUsage, findLimits, upsertLimits } from '../repositories/keys.js';
import {
  KeyParams,
  KeyUsageSchema,
  LimitsInputSchema,
  LimitsSchema,
  toLimits,
  type LimitsInput,
} from '../schemas/keys.js';

/** A budget names its period, and a period its budget; every refusal before anything changes. */
function checkLimits(body: LimitsInput, maxTtlS: number) {
  const budget = body.budgetMicros ?? null;
  const period = body.period ?? null;
  if (budget !== null && period === null)
    throw badRequest('period is required with budgetMicros: day or month');
  if (period !== null && budget === null)
    throw badRequest(`period ${period} needs budgetMicros (the budget of each ${period})`);
  if (body.cacheTtlSeconds != null && body.cacheTtlSeconds > maxTtlS)
    throw badRequest(
      `cacheTtlSeconds must be at most ${maxTtlS} (INFERENCE_CACHE_MAX_TTL_S), got ${body.cacheTtlSeconds}`,
    );
}

const at = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

export const keyRoutes: InferenceRoutes = async (app, { db, platform, config, state }) => {
  // The key's owner: its creator, its team's members, and admins (as passport says who owns it).
  const owner: Access['owner'] = async (request) => {
    const key = await keyOfRequest(platform, request);
    return key && { createdBy: key.createdBy, team: key.team };
  };
  const SET: Access = { resource: 'inference.key', action: 'update', rule: 'owner', owner };
  const READ: Access = { resource: 'inference.key', action: 'read', rule: 'owner', owner };

  app.put(
    '/keys/:keyId/limits',
    {
      config: { access: SET },
      schema: {
        operationId: 'setKeyLimits',
        summary: "Set a platform API key's budget and limits",
        description:
          "Replaces the key's limits (a field left out or null is no limit): `budgetMicros` per `period` (day or month, UTC), `rpm`, `tpm`, `models`, `cacheTtlSeconds`. Enforced on every inference call made with the key, on every instance: beyond a limit 429 with Retry-After naming it; a model not listed 403. By the key's owner (its creator, its team) or an admin; 404 when the identity service knows no such key, 400 for limits that do not hold together (nothing changes).",
        params: KeyParams,
        body: LimitsInputSchema,
        response: responses({ 200: LimitsSchema }),
      },
    },
    async (request) => {
      checkLimits(request.body, config.cacheMaxTtlS);
      const key = await existingKey(platform, request);
      const { budgetMicros, period, rpm, tpm, models, cacheTtlSeconds } = request.body;
      const row = await upsertLimits(db, {
        key_id: key.id,
        budget_micros: budgetMicros == null ? null : String(budgetMicros),
        period: period ?? null,
        rpm: rpm ?? null,
        tpm: tpm ?? null,
        models: models ?? null,
        cache_ttl_s: cacheTtlSeconds ?? null,
        updated_by: describeIdentity(request.identity),
      });
      return ok(toLimits(row));
    },
  );

  app.get(
    '/keys/:keyId/usage',
    {
      config: { access: READ },
      schema: {
        operationId: 'getKeyUsage',
        summary: "A platform API key's usage and remaining budget",
        description:
          "The key's counts in the current UTC minute, day and month (requests, tokens, cost in US micro-dollars), as every instance counted them, its limits, and what is left of its budget. Its owner (creator, team) and admins; 404 for a key the identity service does not know.",
        params: KeyParams,
        response: responses({ 200: KeyUsageSchema }),
      },
    },
    async (request) => {
      const key = await existingKey(platform, request);
      await state.meter.settled(key.id);
      const limits = await findLimits(db, key.id);
      const { rows, now } = await currentUsage(db, key.id);
      const counts = (window: 'minute' | Period) => {
        const row = rows.find((r) => r.window === window);
        return {
          requests: row?.requests ?? 0,
          tokens: Number(row?.tokens ?? 0),
          costMicros: Number(row?.cost_micros ?? 0),
          resetsAt: at(now, secondsLeft(window, now)),
        };
      };
      const { costMicros: _none, ...minute } = counts('minute');
      const budget =
        limits?.budget_micros == null
          ? null
          : (() => {
              const period = (limits.period ?? 'month') as Period;
              const spent = counts(period).costMicros;
              const total = Number(limits.budget_micros);
              return {
                budgetMicros: total,
                period,
                spentMicros: spent,
                remainingMicros: Math.max(0, total - spent),
                resetsAt: counts(period).resetsAt,
              };
            })();
      return ok({
        keyId: key.id,
        limits: limits ? toLimits(limits) : null,
        minute,
        day: counts('day'),
        month: counts('month'),
        budget,
      });
    },
  );
};

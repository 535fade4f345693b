import { createHash } from 'node:crypto';
import { isPlatformError, type ServiceContext } from '@platform/core';
import type { InferenceDb } from '../database.js';
import { spendByDay } from '../repositories/spend.js';

type PlatformClient = ServiceContext['platform'];

/** Billing's provider of inference items. */
export const SPEND_PROVIDER = 'inference';
/** Each run writes the last this many UTC days again (today so far included): late rows count. */
export const SPEND_DAYS = 3;

/** `<day>:<app>:<key>:<model>` ("-" for none), or its hash when longer than billing keeps. */
export function spendRef(day: string, app: string | null, keyId: string | null, model: string) {
  const ref = `${day}:${app ?? '-'}:${keyId ?? '-'}:${model}`;
  return ref.length <= 200
    ? ref
    : `${day}:${createHash('sha256').update(ref).digest('hex').slice(0, 40)}`;
}

/**
 * Writes inference spend into billing: one item per UTC day, app, key and model (provider
 * `inference`, providerRef `<day>:<app>:<key>:<model>`), in cents, rounded; an item already there
 * is updated when its amount changed, so a run repeated or overlapping another writes each once.
 */
export async function exportSpend(db: InferenceDb, platform: PlatformClient) {
  const totals = { created: 0, updated: 0, unchanged: 0 };
  for (const row of await spendByDay(db, SPEND_DAYS)) {
    const model = row.model!;
    const cost = Number(row.cost);
    const providerRef = spendRef(row.day, row.app, row.key_id, model);
    const item = {
      name: `Inference: ${model}${row.key_id ? ` (key ${row.key_id})` : ''}`.slice(0, 200),
      amount: Math.round(cost / 10_000),
      currency: 'USD',
      provider: SPEND_PROVIDER,
      providerRef,
      date: `${row.day}T00:00:00.000Z`,
      service: 'inference',
      stageApp: row.app,
      tags: ['inference', `model:${model}`.slice(0, 50)],
      description: `${row.requests} calls on ${row.day} (UTC), ${row.input} input and ${row.output} output tokens, ${cost} US micro-dollars${row.key_id ? `, key ${row.key_id}` : ''}`,
    };
    try {
      await platform.billing.createItem({ body: item });
      totals.created++;
    } catch (error) {
      if (!isPlatformError(error) || error.status !== 409) throw error;
      const existing = await platform.billing.getItemByProviderRef({
        query: { provider: SPEND_PROVIDER, providerRef },
      });
      if (existing.amount === item.amount && existing.description === item.description) {
        totals.unchanged++;
        continue;
      }
      await platform.billing.updateItem({
        path: { id: existing.id },
        body: { amount: item.amount, description: item.description },
      });
      totals.updated++;
    }
  }
  return totals;
}

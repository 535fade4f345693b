import type { InferenceDb } from '../database.js';
import { sweepEntries } from '../repositories/cache.js';
import { sweepCooldowns } from '../repositories/cooldowns.js';
import { sweepCounters } from '../repositories/keys.js';

/** What has expired goes: cache entries, minute counters over an hour old, ended cool-downs. */
export async function sweep(db: InferenceDb) {
  return {
    cacheEntries: await sweepEntries(db),
    minuteCounters: await sweepCounters(db),
    cooldowns: await sweepCooldowns(db),
  };
}

import { sql } from '@platform/db';
import type { CommunicationDb } from '../database.js';

export function preferencesOf(db: CommunicationDb, recipient: string) {
  return db
    .selectFrom('preferences')
    .selectAll()
    .where('recipient', '=', recipient.toLowerCase())
    .orderBy('category')
    .orderBy('channel')
    .execute();
}

/** Sets each preference (insert or replace), in one transaction. */
export function setPreferences(
  db: CommunicationDb,
  recipient: string,
  preferences: Array<{ category: string; channel: string; enabled: boolean }>,
) {
  return db.transaction().execute(async (trx) => {
    for (const p of preferences)
      await trx
        .insertInto('preferences')
        .values({ recipient: recipient.toLowerCase(), ...p })
        .onConflict((oc) =>
          oc
            .columns(['recipient', 'category', 'channel'])
            .doUpdateSet({ enabled: p.enabled, updated_at: sql`now()` }),
        )
        .execute();
  });
}

/**
 * Whether the recipient turned the category off on this channel: a preference naming the channel
 * wins over one naming its provider; none means on.
 */
export async function optedOut(
  db: CommunicationDb,
  recipient: string,
  category: string,
  channel: { name: string; provider: string },
): Promise<boolean> {
  const rows = await db
    .selectFrom('preferences')
    .select(['channel', 'enabled'])
    .where('recipient', '=', recipient.toLowerCase())
    .where('category', '=', category)
    .where('channel', 'in', [channel.name.toLowerCase(), channel.provider])
    .execute();
  const named = rows.find((r) => r.channel === channel.name.toLowerCase());
  return (named ?? rows[0])?.enabled === false;
}

import { generateKeyPairSync } from 'node:crypto';
import { sql } from '@platform/db';
import { eventHash, personalHash } from '../src/domain/chain';
import type { EventRow, LedgerDb } from '../src/database';
import { parseSigningKey } from '../src/domain/signing-key';
import { ledgerUnderTest, type Ledger } from './helpers';

/** A fresh Ed25519 key in every encoding LEDGER_SIGNING_KEY accepts. */
export function newKey() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  const encodings = {
    pem,
    pemBody: pem.split('\n').slice(1, -2).join(''),
    seedBase64: seed.toString('base64'),
    seedBase64url: seed.toString('base64url'),
    seedHex: seed.toString('hex'),
  };
  return { ...encodings, key: parseSigningKey('TEST_KEY', pem), secrets: Object.values(encodings) };
}
export type TestKey = ReturnType<typeof newKey>;

/** The ledger with `key` configured; periodic signing off unless `interval` says otherwise. */
export const signingLedger = (key: TestKey, interval = '0', db?: Ledger['db']) =>
  ledgerUnderTest({
    db,
    env: {
      LEDGER_SIGNING_KEY: key.pem,
      LEDGER_SIGNING_INTERVAL_MS: interval,
      LEDGER_RETENTION_INTERVAL_MS: '0',
    },
  });

/**
 * What someone with database access who understands the scheme does: changes the content of
 * event `seq` and recomputes the hashes of it and of every later event with chain.ts, then moves
 * the head. Today's hash checks alone cannot tell.
 */
export async function rewriteFrom(
  db: LedgerDb,
  seq: number,
  change: Partial<Pick<EventRow, 'action' | 'actor' | 'resource'>>,
): Promise<void> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>=', seq)
    .orderBy('seq')
    .execute();
  let prev = rows[0].prev_hash;
  for (const original of rows) {
    const row = original.seq === seq ? { ...original, ...change } : original;
    const personal = row.anonymized_at === null ? personalHash(row) : row.personal_hash;
    const hash = eventHash(row, personal, prev);
    await db
      .updateTable('events')
      .set({ ...(row === original ? {} : change), personal_hash: personal, prev_hash: prev, hash })
      .where('seq', '=', row.seq)
      .execute();
    prev = hash;
  }
  await db.updateTable('chain_head').set({ hash: prev }).where('id', '=', 1).execute();
}

/** Every row of every table of the ledger's schema (whatever tables it has), as text. */
export async function dumpTables(db: LedgerDb): Promise<string> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = 'ledger'`.execute(
    db,
  );
  expect(rows.map((r) => r.name)).toContain('signed_heads');
  const all = await Promise.all(
    rows.map((r) =>
      db
        .selectFrom(r.name as 'events')
        .selectAll()
        .execute(),
    ),
  );
  return JSON.stringify(all);
}

import { sql } from '@platform/db';
import type { PaletteDb } from '../database.js';

/** Every token by name: what an export contains. */
export const allTokens = (db: PaletteDb) =>
  db
    .selectFrom('tokens')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .execute();

/** Whether a token other than `exceptId` has that name (in any case). */
export async function otherTokenNamed(db: PaletteDb, name: string, exceptId = '') {
  const other = await db
    .selectFrom('tokens')
    .select('id')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return other !== undefined;
}

/** The components that use a token (by name) and the patterns that contain such a component. */
export async function tokenUsage(db: PaletteDb, id: string) {
  const components = await db
    .selectFrom('component_tokens as ct')
    .innerJoin('components as c', 'c.id', 'ct.component_id')
    .select(['c.id', 'c.name'])
    .where('ct.token_id', '=', id)
    .orderBy(sql`lower(c.name)`)
    .execute();
  const patterns = await db
    .selectFrom('pattern_components as pc')
    .innerJoin('patterns as p', 'p.id', 'pc.pattern_id')
    .innerJoin('component_tokens as ct', 'ct.component_id', 'pc.component_id')
    .select(['p.id', 'p.name'])
    .where('ct.token_id', '=', id)
    .distinct()
    .orderBy('p.name')
    .execute();
  return { components, patterns };
}

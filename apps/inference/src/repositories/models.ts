import { sql } from '@platform/db';
import type { InferenceDb } from '../database.js';

/** A model as listModels reads it: with its provider's id and name. */
export type ModelListRow = Awaited<ReturnType<typeof listModels>>[number];

/** Models with their provider's name, newest first; `provider` is an id or a name (any case). */
export function listModels(
  db: InferenceDb,
  provider: string | undefined,
  page: { limit: number; offset: number },
) {
  let query = db
    .selectFrom('models')
    .innerJoin('providers', 'providers.id', 'models.provider_id')
    .select([
      'models.name',
      'models.created_at',
      'providers.id as provider_id',
      'providers.name as provider',
    ]);
  if (provider !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('providers.id', '=', provider),
        eb(sql<string>`lower(providers.name)`, '=', provider.toLowerCase()),
      ]),
    );
  return query
    .orderBy('models.created_at', 'desc')
    .orderBy('models.name')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Replaces a provider's models with `names`, in one transaction; answers how many are new. */
export async function replaceModels(db: InferenceDb, providerId: string, names: string[]) {
  return db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom('models')
      .select('name')
      .where('provider_id', '=', providerId)
      .execute();
    await tx.deleteFrom('models').where('provider_id', '=', providerId).execute();
    if (names.length)
      await tx
        .insertInto('models')
        .values(names.map((name) => ({ provider_id: providerId, name })))
        .execute();
    const known = new Set(before.map((m) => m.name));
    return names.filter((n) => !known.has(n)).length;
  });
}

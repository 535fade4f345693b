import { notFound } from '@platform/core';
import type { Insertable } from '@platform/db';
import type { ClassificationRow, ClassificationsTable, LedgerDb } from '../database.js';

/** Inserts a classification; undefined when that field of that service is classified already. */
export function insertClassification(
  db: LedgerDb,
  classification: Insertable<ClassificationsTable>,
): Promise<ClassificationRow | undefined> {
  return db
    .insertInto('classifications')
    .values(classification)
    .onConflict((oc) => oc.columns(['service_id', 'field']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function listClassifications(
  db: LedgerDb,
  filter: Partial<Pick<ClassificationRow, 'service_id' | 'level'>>,
  page: { limit: number; offset: number },
): Promise<ClassificationRow[]> {
  return db
    .selectFrom('classifications')
    .selectAll()
    .where((eb) => eb.and(filter))
    .orderBy('service_id')
    .orderBy('field')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export const findClassification = (db: LedgerDb, id: string) =>
  db
    .selectFrom('classifications')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('Classification', id));

/** The classification of one field of one service, if there is one. */
export const findClassificationOfField = (db: LedgerDb, serviceId: string, field: string) =>
  db
    .selectFrom('classifications')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('field', '=', field)
    .executeTakeFirst();

export const deleteClassification = (db: LedgerDb, id: string) =>
  db
    .deleteFrom('classifications')
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow(() => notFound('Classification', id));

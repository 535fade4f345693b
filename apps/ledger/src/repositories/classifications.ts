import type { ClassificationRow, LedgerDb } from '../database.js';

export interface NewClassification {
  id: string;
  serviceId: string;
  field: string;
  level: string;
  justification: string;
  ppiCategory: string | null;
}

/** Inserts a classification; undefined when that field of that service is classified already. */
export function insertClassification(
  db: LedgerDb,
  classification: NewClassification,
): Promise<ClassificationRow | undefined> {
  return db
    .insertInto('classifications')
    .values({
      id: classification.id,
      service_id: classification.serviceId,
      field: classification.field,
      level: classification.level,
      justification: classification.justification,
      ppi_category: classification.ppiCategory,
    })
    .onConflict((oc) => oc.columns(['service_id', 'field']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** By service, then field. */
export function listClassifications(
  db: LedgerDb,
  filter: { serviceId?: string; level?: string },
  page: { limit: number; offset: number },
): Promise<ClassificationRow[]> {
  let query = db.selectFrom('classifications').selectAll();
  if (filter.serviceId !== undefined) query = query.where('service_id', '=', filter.serviceId);
  if (filter.level !== undefined) query = query.where('level', '=', filter.level);
  return query
    .orderBy('service_id')
    .orderBy('field')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findClassification(
  db: LedgerDb,
  id: string,
): Promise<ClassificationRow | undefined> {
  return db.selectFrom('classifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The classification of one field of one service, if there is one. */
export function findClassificationOfField(
  db: LedgerDb,
  serviceId: string,
  field: string,
): Promise<ClassificationRow | undefined> {
  return db
    .selectFrom('classifications')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('field', '=', field)
    .executeTakeFirst();
}

export function deleteClassification(
  db: LedgerDb,
  id: string,
): Promise<ClassificationRow | undefined> {
  return db.deleteFrom('classifications').where('id', '=', id).returningAll().executeTakeFirst();
}

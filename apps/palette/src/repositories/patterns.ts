import { findByIdOrName } from '@platform/core';
import { jsonb, sql, type Insertable } from '@platform/db';
import type { PaletteDb, PatternRow, PatternsTable, Step } from '../database.js';
import { unique } from '../domain/records.js';
import { componentRefs, componentsLinkedBy, type ComponentRef } from './components.js';
import {
  deleteRecord,
  insertRecord,
  linkedIds,
  listNamed,
  updateRecord,
  type Page,
} from './records.js';

export type PatternColumns = Omit<Insertable<PatternsTable>, 'id' | 'created' | 'updated'>;

export interface PatternFilter {
  category?: string;
  tag?: string;
}

export const findPattern = (db: PaletteDb, idOrName: string) =>
  findByIdOrName<PatternRow>(db, 'patterns', idOrName, 'Pattern');

export const listPatterns = (db: PaletteDb, filter: PatternFilter, page: Page) =>
  listNamed(db, 'patterns', { ...filter }, page);

/** The component ids of each pattern, in one query. */
export const componentIdsOfPatterns = (db: PaletteDb, patternIds: readonly string[]) =>
  linkedIds(db, 'pattern_components', patternIds);

export const insertPattern = (db: PaletteDb, values: PatternColumns, componentIds: string[]) =>
  insertRecord(db, 'patterns', values, { link: 'pattern_components', targets: componentIds });

/** Changes a pattern; `componentIds`, when given, replace its components. */
export const updatePattern = (
  db: PaletteDb,
  id: string,
  changes: Partial<PatternColumns>,
  componentIds?: string[],
) =>
  updateRecord(
    db,
    'patterns',
    id,
    changes,
    componentIds && { link: 'pattern_components', targets: componentIds },
  );

export const deletePattern = (db: PaletteDb, id: string) => deleteRecord(db, 'patterns', id);

/** Appends a step in one statement, so that concurrent appends all keep their place. */
export function appendStep(db: PaletteDb, id: string, step: Step): Promise<PatternRow> {
  return db
    .updateTable('patterns')
    .set({ steps: sql`steps || ${jsonb([step])}::jsonb`, updated: sql`now()` } as never)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A pattern's components, then those only its steps use. */
export async function patternComponents(db: PaletteDb, pattern: PatternRow) {
  const linked = await componentsLinkedBy(db, 'pattern_components', pattern.id);
  const linkedIds = new Set(linked.map((c) => c.id));
  const stepIds = unique(pattern.steps.flatMap((s) => (s.component ? [s.component] : [])));
  const fromSteps = await componentRefs(
    db,
    stepIds.filter((id) => !linkedIds.has(id)),
  );
  return [...linked, ...fromSteps] satisfies ComponentRef[];
}

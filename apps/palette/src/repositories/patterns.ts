import { unique } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { PaletteDb, PatternRow, Step } from '../database.js';

import type { ComponentRef } from '../schemas/components.js';
import { componentsLinkedBy } from './components.js';

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
  const linked = await componentsLinkedBy(db, 'patterns', pattern.id);
  const linkedIds = new Set(linked.map((c) => c.id));
  const stepIds = unique(pattern.steps.flatMap((s) => (s.component ? [s.component] : [])));
  const fromSteps = stepIds.filter((id) => !linkedIds.has(id));
  if (fromSteps.length === 0) return linked;
  const refs = (await db
    .selectFrom('components')
    .select(['id', 'name', 'status'])
    .where('id', 'in', fromSteps)
    .execute()) as ComponentRef[];
  return [...linked, ...refs];
}

import { jsonb, sql } from '@platform/db';
import type { ModeRow, PaletteDb } from '../database.js';
import type { Existing, ModeValue, Step } from '../domain/dtcg/plan.js';

// The statements of a DTCG import and of the modes.

/** Every token with its values in modes other than light and dark (what an import matches). */
export async function loadExisting(db: PaletteDb): Promise<Existing> {
  const tokens = await db.selectFrom('tokens').selectAll().execute();
  const rows = (await db.selectFrom('token_mode_values').selectAll().execute()).sort((a, b) =>
    a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0,
  );
  const modes = new Map<string, ModeValue[]>();
  for (const r of rows)
    (modes.get(r.token_id) ?? modes.set(r.token_id, []).get(r.token_id)!).push({
      mode: r.mode,
      value: r.value,
      ref: r.value_ref,
      source: r.source === null ? undefined : (JSON.parse(r.source) as unknown),
    });
  return { tokens, modes };
}

/** Every mode value of these tokens, by token id. */
export async function modeValuesOf(db: PaletteDb) {
  return (await loadExisting(db)).modes;
}

/** The tokens a deletion would take from components (which keep them): path -> components. */
export async function componentsUsing(db: PaletteDb, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('component_tokens as ct')
    .innerJoin('components as c', 'c.id', 'ct.component_id')
    .select(['ct.token_id', 'c.name'])
    .where('ct.token_id', 'in', ids)
    .execute();
}

/** How many tokens one statement writes. */
const CHUNK = 500;
const chunks = <T>(list: T[]) =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) =>
    list.slice(i * CHUNK, (i + 1) * CHUNK),
  );

/**
 * Writes the steps in chunks: tokens first without their aliases (one upsert per chunk, so that
 * any order satisfies the foreign keys), then aliases and mode values, then deletions. `owned`
 * stamps created tokens.
 */
export async function applyImport(
  db: PaletteDb,
  steps: Step[],
  owned: { created_by: string | null; team: string | null },
) {
  const writes = steps.filter((s) => s.action === 'created' || s.action === 'updated');
  const deletes = steps.filter((s) => s.action === 'deleted').map((s) => s.id);
  for (const ids of chunks(deletes)) {
    await db.deleteFrom('token_mode_values').where('token_id', 'in', ids).execute();
    await db
      .updateTable('tokens')
      .set({ value_default_ref: null, value_dark_ref: null })
      .where('id', 'in', ids)
      .execute();
  }
  for (const chunk of chunks(writes)) {
    const rows = chunk.map((step) => ({
      ...step.columns!,
      value_default_ref: null,
      value_dark_ref: null,
      source: JSON.stringify(step.columns!.source),
      id: step.id,
      tags: jsonb([]),
      ...owned,
    }));
    const columns = Object.keys(chunk[0].columns!) as Array<keyof NonNullable<Step['columns']>>;
    await db
      .insertInto('tokens')
      .values(rows)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          ...Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)])),
          value_default_ref: null,
          value_dark_ref: null,
          updated: sql`now()`,
        })),
      )
      .execute();
  }
  for (const chunk of chunks(writes)) {
    const aliased = chunk.filter((s) => s.columns!.value_default_ref || s.columns!.value_dark_ref);
    if (aliased.length > 0)
      await db
        .updateTable('tokens')
        .from(
          sql<{ id: string; d: string | null; k: string | null }>`(values ${sql.join(
            aliased.map(
              (s) =>
                sql`(${s.id}::text, ${s.columns!.value_default_ref}::text, ${s.columns!.value_dark_ref}::text)`,
            ),
          )})`.as<'v'>(sql.raw('v(id, d, k)')),
        )
        .set((eb) => ({ value_default_ref: eb.ref('v.d'), value_dark_ref: eb.ref('v.k') }))
        .whereRef('tokens.id', '=', 'v.id')
        .execute();
    await db
      .deleteFrom('token_mode_values')
      .where(
        'token_id',
        'in',
        chunk.map((s) => s.id),
      )
      .execute();
    const modes = chunk.flatMap((step) =>
      step.modes.map((m) => ({
        token_id: step.id,
        mode: m.mode,
        value: m.value,
        value_ref: m.ref,
        source: m.source === undefined ? null : JSON.stringify(m.source),
      })),
    );
    for (const part of chunks(modes))
      await db.insertInto('token_mode_values').values(part).execute();
  }
  for (const ids of chunks(deletes)) await db.deleteFrom('tokens').where('id', 'in', ids).execute();
}

/** The modes with their CSS settings, in order. */
export const listModes = (db: PaletteDb, page: { limit: number; offset: number }) =>
  db
    .selectFrom('modes')
    .selectAll()
    .orderBy('position')
    .orderBy('name')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** Sets a mode's CSS selector and media query (a new mode goes last). */
export async function saveMode(db: PaletteDb, mode: Omit<ModeRow, 'position'>) {
  const last = await db
    .selectFrom('modes')
    .select(sql<number>`coalesce(max(position), 0)`.as('max'))
    .executeTakeFirstOrThrow();
  await db
    .insertInto('modes')
    .values({ ...mode, position: Number(last.max) + 1 })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ selector: mode.selector, media: mode.media }),
    )
    .execute();
}

/** Each modifier's default context, as the last import that had it read it. */
export async function modifierDefaults(db: PaletteDb): Promise<Map<string, string>> {
  const rows = await db.selectFrom('modifiers').selectAll().execute();
  return new Map(rows.map((r) => [r.name, r.default_context]));
}

/** Keeps the default contexts of an import's modifiers. */
export async function saveModifierDefaults(
  db: PaletteDb,
  modifiers: Array<{ name: string; default: string }>,
) {
  if (modifiers.length === 0) return;
  await db
    .insertInto('modifiers')
    .values(modifiers.map((m) => ({ name: m.name, default_context: m.default })))
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ default_context: eb.ref('excluded.default_context') })),
    )
    .execute();
}

import { jsonb, sql } from '@platform/db';
import type { RenderError, RenderRow, StageDb } from '../database/index.js';

export function findRender(db: StageDb, sessionId: string): Promise<RenderRow | undefined> {
  return db
    .selectFrom('renders')
    .selectAll()
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** The render state without its output (status, render routes). */
export function findRenderState(db: StageDb, sessionId: string) {
  return db
    .selectFrom('renders')
    .select(['entry', 'version', 'error', 'rendered_at'])
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** A good render: the next version, its output served from now on, no error. */
export function saveRender(
  db: StageDb,
  sessionId: string,
  output: { entry: string; root: string; js: string; css: string | null },
) {
  return db
    .insertInto('renders')
    .values({
      session_id: sessionId,
      ...output,
      output_entry: output.entry,
      version: 1,
      error: null,
      rendered_at: sql`now()`,
    })
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet((eb) => ({
        entry: eb.ref('excluded.entry'),
        output_entry: eb.ref('excluded.entry'),
        root: eb.ref('excluded.root'),
        js: eb.ref('excluded.js'),
        css: eb.ref('excluded.css'),
        error: null,
        rendered_at: sql`now()`,
        version: sql`renders.version + 1`,
      })),
    )
    .returning(['entry', 'version'])
    .executeTakeFirstOrThrow();
}

/** A failed render: the error is shown, the last good output still served. */
export function saveRenderError(db: StageDb, sessionId: string, entry: string, error: RenderError) {
  const json = jsonb(error);
  return db
    .insertInto('renders')
    .values({ session_id: sessionId, entry, version: 0, error: json })
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ entry, error: json }))
    .returning(['entry', 'version'])
    .executeTakeFirstOrThrow();
}

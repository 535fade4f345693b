import { migrateSchema, sql } from '@platform/db';
import { testDatabase } from '@platform/testing';
import { migrations } from '../src/migrations/index';

// Tokens stored before the value grammars (2026-11-21) are filed again by 2026-11-22-token-aliases:
// font weights and font families leave `typography` for the categories that export them right.

it('moves font weights and font stacks out of typography, and leaves sizes there', async () => {
  const db = await testDatabase();
  try {
    const { '2026-11-21-palette': first } = migrations;
    await migrateSchema(db, 'palette', { '2026-11-21-palette': first });
    const values = [
      '600',
      'Bold',
      'Inter, sans-serif',
      'Helvetica, Arial, sans-serif',
      '"Fira Code"',
      '16px',
      '1.5rem',
    ];
    for (const [i, value] of values.entries())
      await sql`insert into palette.tokens (id, name, category, value_default, css_variable, tailwind_key)
        values (${`t${i}`}, ${`t${i}`}, 'typography', ${value}, ${`--t${i}`}, ${`t${i}`})`.execute(
        db.kysely,
      );
    await migrateSchema(db, 'palette', migrations);
    const { rows } = await sql<{ value_default: string; category: string }>`
      select value_default, category from palette.tokens order by id`.execute(db.kysely);
    expect(rows.map((r) => [r.value_default, r.category])).toEqual([
      ['600', 'font-weight'],
      ['Bold', 'font-weight'],
      ['Inter, sans-serif', 'font-family'],
      ['Helvetica, Arial, sans-serif', 'font-family'],
      ['"Fira Code"', 'font-family'],
      ['16px', 'typography'],
      ['1.5rem', 'typography'],
    ]);
  } finally {
    await db.close();
  }
});

// The design system, palette (issue 5): listing and exporting 2,000 tokens in each format.
import pg from 'pg';
import { databaseUrl, measure, start } from './lib.mjs';

/** The design system: exporting 2,000 tokens in each format (issue 5). */
export async function palette() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query('delete from palette.component_tokens; delete from palette.tokens');
  const categories = ['color', 'spacing', 'radius', 'shadow', 'motion'];
  const values = {
    color: '#3366ff',
    spacing: '4px',
    radius: '8px',
    shadow: '0 1px 2px #0003',
    motion: '120ms',
  };
  const rows = Array.from({ length: 2000 }, (_, i) => {
    const category = categories[i % categories.length];
    const name = `${category}-token-${i}`;
    return [
      `t${i}`,
      name,
      category,
      values[category],
      // Every other token has a dark value: a darker color, the same value otherwise.
      i % 2 ? (category === 'color' ? '#001133' : values[category]) : null,
      `--${name}`,
      `token-${i}`,
      `group-${i % 10}`,
    ];
  });
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const placeholders = chunk.map(
      (_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(',')})`,
    );
    await pool.query(
      `insert into palette.tokens (id, name, category, value_default, value_dark, css_variable, tailwind_key, "group") values ${placeholders.join(',')}`,
      chunk.flat(),
    );
  }
  await pool.query('analyze palette.tokens');
  await pool.end();
  const base = `${gateway.url}/api/v1/palette`;
  const list = await measure('GET /tokens?limit=100 (2,000 tokens)', `${base}/tokens?limit=100`);
  await measure('GET /tokens?limit=1000', `${base}/tokens?limit=1000`, {}, list);
  for (const format of ['css', 'json', 'tailwind', 'tailwind4'])
    await measure(
      `GET /export?format=${format} (2,000 tokens)`,
      `${base}/export?format=${format}`,
      {},
      list,
    );
}

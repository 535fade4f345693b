// The catalog (issue 4): dependency traversal on a generated 10,000-service graph, and search.
import pg from 'pg';
import { databaseUrl, measure, start } from './lib.mjs';

/**
 * A generated catalog of `count` services in layers of 500; each depends on three services in
 * deeper layers, one in a hundred also on one in a shallower layer (cycles), and the first on
 * the rest of the first layer, so that it reaches most of the graph. Written with pg.
 */
async function generateCatalog(count) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query('delete from catalog.dependencies; delete from catalog.services');
  const ids = Array.from({ length: count }, (_, i) => `s${String(i).padStart(7, '0')}`);
  const layer = (i) => Math.floor(i / 500);
  const layers = Math.ceil(count / 500);
  // mulberry32: the same graph on every run, so runs compare.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (from, to) => from + Math.floor(random() * (to - from));
  const insert = async (table, columns, rows) => {
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      const values = chunk
        .map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(',')})`)
        .join(',');
      await pool.query(
        `insert into catalog.${table} (${columns.join(',')}) values ${values} on conflict do nothing`,
        chunk.flat(),
      );
    }
  };
  await insert(
    'services',
    ['id', 'name', 'description', 'tags'],
    ids.map((id, i) => [
      id,
      `svc-${i}`,
      `Generated service ${i} of layer ${layer(i)}`,
      JSON.stringify([`layer-${layer(i)}`, i % 2 ? 'odd' : 'even']),
    ]),
  );
  const edges = [];
  ids.forEach((id, i) => {
    const l = layer(i);
    if (l + 1 < layers)
      for (let k = 0; k < 3; k++)
        edges.push([id, ids[pick((l + 1) * 500, Math.min(count, layers * 500))]]);
    if (l > 0 && i % 100 === 0) edges.push([id, ids[pick(0, l * 500)]]);
  });
  for (let i = 1; i < Math.min(500, count); i++) edges.push([ids[0], ids[i]]);
  await insert('dependencies', ['service_id', 'depends_on_id'], edges);
  // As autovacuum would soon: plans made on empty-table statistics are not what users get.
  await pool.query('analyze catalog.services; analyze catalog.dependencies');
  await pool.end();
  return { ids, edges: edges.length, top: ids[0], bottom: ids[count - 1] };
}

/** The catalog: dependency traversal on a 10,000-service graph, and search (issue 4). */
export async function catalog() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const graph = await generateCatalog(10_000);
  console.error(`  generated 10000 services, ${graph.edges} dependencies`);
  const base = `${gateway.url}/api/v1/catalog`;
  const size = async (url) => (await (await fetch(url)).json()).data.nodes.length;
  const get = await measure('GET /services/:id (10,000 services)', `${base}/services/${graph.top}`);
  for (const [name, url] of [
    ['GET /deps down, unlimited', `${base}/deps/${graph.top}`],
    ['GET /deps up, unlimited', `${base}/deps/${graph.bottom}?direction=up`],
    ['GET /deps down, depth 2', `${base}/deps/${graph.top}?depth=2`],
  ]) {
    const nodes = await size(url);
    await measure(`${name} (${nodes} nodes)`, url, {}, get);
  }
  const single = await measure('GET /services/:id, 1 connection', `${base}/services/${graph.top}`, {
    connections: 1,
  });
  const downUrl = `${base}/deps/${graph.top}`;
  await measure(
    `GET /deps down, unlimited, 1 connection (${await size(downUrl)} nodes)`,
    downUrl,
    { connections: 1 },
    single,
  );
  await measure('GET /search?q=svc-12 (prefix)', `${base}/search?q=svc-12`, {}, get);
  await measure('GET /search?q=layer-7 (tag)', `${base}/search?q=layer-7`, {}, get);
  await measure('GET /search?q=zzz (no hit, full scan)', `${base}/search?q=zzz`, {}, get);
}

// The catalog (issues 4 and 20): dependency traversal on a generated 10,000-service graph, each walk
// against serving its answer from memory, and search.
import Fastify from 'fastify';
import pg from 'pg';
import { databaseUrl, measure, start } from './lib.mjs';

/**
 * A generated catalog of `count` services in layers of 500; each depends on three services in
 * deeper layers, one in a hundred also on one in a shallower layer (cycles), and the first on
 * the rest of the first layer, so that it reaches most of the graph. Written with pg.
 */
export async function generateCatalog(count) {
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
  // 200 APIs, each provided by one service and consumed by five (include=apis walks them).
  await pool.query('delete from catalog.apis');
  const apis = Array.from({ length: 200 }, (_, i) => `a${String(i).padStart(7, '0')}`);
  await insert(
    'apis',
    ['id', 'name', 'type'],
    apis.map((id, i) => [id, `api-${i}`, 'openapi']),
  );
  await insert(
    'service_apis',
    ['service_id', 'relation', 'api_id'],
    apis.flatMap((api) => [
      [ids[pick(0, count)], 'provides', api],
      ...Array.from({ length: 5 }, () => [ids[pick(0, count)], 'consumes', api]),
    ]),
  );
  // As autovacuum would soon: plans made on empty-table statistics are not what users get.
  await pool.query(
    'analyze catalog.services; analyze catalog.dependencies; analyze catalog.service_apis',
  );
  await pool.end();
  return { ids, edges: edges.length, top: ids[0], bottom: ids[count - 1] };
}

/**
 * The baseline of a walk: the same answer, fetched once from `urls` (a JSON list) and kept in
 * memory, served by a bare Fastify at /0, /1, ... (serialised by JSON.stringify on every request,
 * with no schema), in a process of its own as the gateway is. Run as `node bench/catalog.mjs`.
 */
async function serveAnswers(urls) {
  const answers = await Promise.all(urls.map(async (url) => (await fetch(url)).json()));
  const app = Fastify();
  answers.forEach((answer, i) => app.get(`/${i}`, async () => answer));
  await app.listen({ host: process.env.HOST, port: Number(process.env.PORT) });
}
if (process.argv[1] === import.meta.filename && process.env.CATALOG_ANSWERS)
  await serveAnswers(JSON.parse(process.env.CATALOG_ANSWERS));

/**
 * The catalog: dependency traversal on a 10,000-service graph, each walk as a ratio to serving
 * the same answer from memory (issue 20: within 3 times), and search (issue 4).
 */
export async function catalog() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const graph = await generateCatalog(10_000);
  console.error(`  generated 10000 services, ${graph.edges} dependencies`);
  const base = `${gateway.url}/api/v1/catalog`;
  const size = async (url) => (await (await fetch(url)).json()).data.nodes.length;
  const get = await measure('GET /services/:id (10,000 services)', `${base}/services/${graph.top}`);
  const walks = [
    ['GET /deps down, unlimited', `${base}/deps/${graph.top}`],
    ['GET /deps up, unlimited', `${base}/deps/${graph.bottom}?direction=up`],
    ['GET /deps down, depth 2', `${base}/deps/${graph.top}?depth=2`],
    ['GET /deps down, unlimited, with APIs', `${base}/deps/${graph.top}?include=apis`],
  ];
  const memory = await start('bench/catalog.mjs', {
    DATABASE_URL: databaseUrl,
    CATALOG_ANSWERS: JSON.stringify(walks.map(([, url]) => url)),
  });
  const walk = async (name, url, i, options = {}) => {
    const nodes = await size(url);
    const label = options.connections === 1 ? ', 1 connection' : '';
    const serialise = await measure(
      `same answer served from memory (${nodes} nodes${label})`,
      `${memory.url}/${i}`,
      options,
    );
    await measure(`${name}${label} (${nodes} nodes)`, url, options, serialise);
  };
  for (const [i, [name, url]] of walks.entries()) await walk(name, url, i);
  await walk(...walks[0], 0, { connections: 1 });
  await measure('GET /services/:id, 1 connection', `${base}/services/${graph.top}`, {
    connections: 1,
  });
  await measure('GET /search?q=svc-12 (prefix)', `${base}/search?q=svc-12`, {}, get);
  await measure('GET /search?q=layer-7 (tag)', `${base}/search?q=layer-7`, {}, get);
  await measure('GET /search?q=zzz (no hit, full scan)', `${base}/search?q=zzz`, {}, get);
}

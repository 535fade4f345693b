const { PGlite } = require('@electric-sql/pglite');
(async () => {
  let t = Date.now();
  const a = await PGlite.create('memory://');
  console.log('create', Date.now() - t);
  t = Date.now();
  const dump = await a.dumpDataDir('none');
  console.log('dump', Date.now() - t, dump.size);
  t = Date.now();
  const b = await PGlite.create('memory://', { loadDataDir: dump });
  console.log('load', Date.now() - t);
  t = Date.now();
  const c = await b.clone();
  console.log('clone', Date.now() - t);
  console.log((await c.query('select 1 as x')).rows);
})();

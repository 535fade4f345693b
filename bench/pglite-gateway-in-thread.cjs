// The gateway with the embedded database in the main thread (as before the PGlite worker): the
// baseline of bench/pglite-worker.mjs. openDatabase is swapped before the gateway loads it (in
// database.js: index.js re-exports it through a getter, which reads it from there).
const { PGlite } = require('@electric-sql/pglite');
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm');
const database = require('../libs/db/dist/database.js');

const open = database.openDatabase;
database.openDatabase = async (options = {}) => {
  if (options.url) return open(options);
  console.error('PGlite in the main thread');
  return database.fromPGlite(await PGlite.create('memory://', { extensions: { pg_trgm } }));
};
require('../apps/gateway/dist/main.js');

// The gateway with the embedded database in the main thread (as before the PGlite worker): the
// baseline of bench/pglite-worker.mjs. openDatabase is swapped before the gateway loads it (in
// database.js: index.js re-exports it through a getter, which reads it from there).
const { PGlite } = require('@electric-sql/pglite');
const database = require('../libs/db/dist/database.js');
const { PGLITE_EXTENSIONS } = require('../libs/db/dist/pglite-extensions.js');

const open = database.openDatabase;
database.openDatabase = async (options = {}) => {
  if (options.url) return open(options);
  console.error('PGlite in the main thread');
  return database.fromPGlite(await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS }));
};
require('../apps/gateway/dist/main.js');

import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The extensions every PGlite the platform opens loads: those the services' migrations create
 * (the catalog's search: pg_trgm). The worker of `openDatabase` and the test databases use it.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

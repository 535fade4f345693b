import { join } from 'node:path';
import type { ServiceManifest } from '@platform/core';
import { migrations } from './migrations/index.js';
import { SCHEMA, type PaletteDatabase } from './repository.js';
import { componentRoutes } from './routes/components.js';
import { libraryRoutes } from './routes/library.js';
import { searchRoutes } from './routes/search.js';
import { tokenRoutes } from './routes/tokens.js';

/** Design system: tokens, components, patterns, standards, accessibility rules (spec 2.5, 4.5). */
export const palette: ServiceManifest = {
  name: SCHEMA,
  title: 'Design system',
  prefix: '/api/v1/palette',
  version: '0.1.0',
  defaultPort: 3105,
  migrations,
  webRoot: join(__dirname, '..', 'web'),
  async plugin(app, { db }) {
    const schema = db.schema<PaletteDatabase>(SCHEMA);
    for (const routes of [tokenRoutes, componentRoutes, libraryRoutes, searchRoutes])
      await app.register(routes, { palette: schema });
  },
};

export default palette;

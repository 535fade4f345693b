import { join } from 'node:path';
import { defineService } from '@platform/core';
import type { PaletteDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { componentRoutes } from './routes/components.js';
import { exportRoutes } from './routes/exports.js';
import { importRoutes } from './routes/import.js';
import { patternRoutes } from './routes/patterns.js';
import { ruleRoutes } from './routes/rules.js';
import { searchRoutes } from './routes/search.js';
import { standardRoutes } from './routes/standards.js';
import { tokenRoutes } from './routes/tokens.js';

/** Design system: tokens, components, patterns, standards, accessibility rules (spec 2.5, 4.5). */
export const palette = defineService<PaletteDatabase>({
  name: 'palette',
  title: 'Design system',
  root: join(__dirname, '..'),
  defaultPort: 3105,
  migrations,
  routes: [
    tokenRoutes,
    exportRoutes,
    importRoutes,
    componentRoutes,
    patternRoutes,
    standardRoutes,
    ruleRoutes,
    searchRoutes,
  ],
});

export default palette;
export { DEFAULT_TOKENS, defaultTokensCss } from './domain/default-tokens.js';

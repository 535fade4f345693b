import { join } from 'node:path';
import { defineService } from '@platform/core';
import type { {{Name}}Database } from './database.js';
import { migrations } from './migrations/index.js';
import { itemRoutes } from './routes/items.js';

/** {{descriptionComment}}. */
export const {{name}} = defineService<{{Name}}Database>({
  name: '{{name}}',
  title: {{titleLiteral}},
  root: join(__dirname, '..'),
  defaultPort: {{port}},
  migrations,
  routes: [itemRoutes],
});

export default {{name}};

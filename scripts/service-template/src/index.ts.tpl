import { join } from 'node:path';
import { defineService } from '@platform/core';
import { {{NAME}}_VARIABLES, {{name}}Config, type {{Name}}Config } from './config.js';
import type { {{Name}}Database } from './database.js';
import { migrations } from './migrations/index.js';
import { itemRoutes } from './routes/items.js';

/** {{descriptionComment}}. */
export const {{name}} = defineService<{{Name}}Database, {{Name}}Config>({
  name: '{{name}}',
  title: {{titleLiteral}},
  root: join(__dirname, '..'),
  defaultPort: {{port}},
  migrations,
  variables: {{NAME}}_VARIABLES,
  config: {{name}}Config,
  routes: [itemRoutes],
});

export default {{name}};

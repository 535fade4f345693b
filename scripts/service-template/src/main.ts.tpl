import { runStandalone } from '@platform/core';
import { {{name}} } from './index.js';

runStandalone({{name}}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { runStandalone } from '@platform/core';
import { catalog } from './index.js';

runStandalone(catalog).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

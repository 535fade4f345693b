import { runStandalone } from '@platform/core';
import { passport } from './index.js';

runStandalone(passport).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

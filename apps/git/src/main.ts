import { runStandalone } from '@platform/core';
import { git } from './index.js';

runStandalone(git).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

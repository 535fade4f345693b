import { runStandalone } from '@platform/core';
import { stage } from './index.js';

runStandalone(stage).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { runStandalone } from '@platform/core';
import { communication } from './index.js';

runStandalone(communication).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { runStandalone } from '@platform/core';
import { pulse } from './index.js';

runStandalone(pulse).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

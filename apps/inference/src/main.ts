import { runStandalone } from '@platform/core';
import { inference } from './index.js';

runStandalone(inference).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { runStandalone } from '@platform/core';
import { ledger } from './index.js';

runStandalone(ledger).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { runStandalone } from '@platform/core';
import { billing } from './index.js';

runStandalone(billing).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

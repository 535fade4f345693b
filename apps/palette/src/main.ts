import { runStandalone } from '@platform/core';
import { palette } from './index.js';

runStandalone(palette).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

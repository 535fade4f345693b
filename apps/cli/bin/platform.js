#!/usr/bin/env node
// The `platform` command: the bundle a packed or globally installed copy carries (npm pack), or
// in the repository the compiled CLI (npm run build, or npx tsc -b apps/cli).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '../dist/platform.cjs');
const { run } = require(existsSync(bundle) ? bundle : '../dist/main.js');

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

#!/usr/bin/env node
// The `platform` command: the compiled CLI (npm run build, or npx tsc -b apps/cli).
const { run } = require('../dist/main.js');

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

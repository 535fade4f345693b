#!/usr/bin/env node
// The `platform` command (issue 19): built in apps/cli/src.
process.stdout.write('platform: not built yet\n');
process.exitCode = 1;

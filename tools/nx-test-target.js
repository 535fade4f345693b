// A local Nx plugin: every project with a test/ folder gets a `test` target, so the per-project
// test command is written once, here (`npx nx run-many -t test`, `npx nx test @platform/pulse`).
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

const JEST = 'node --experimental-vm-modules node_modules/jest/bin/jest.js';

exports.createNodesV2 = [
  '{apps,libs}/*/package.json',
  async (files, _options, context) =>
    files.map((file) => {
      const root = dirname(file);
      if (!existsSync(join(context.workspaceRoot, root, 'test'))) return [file, {}];
      const test = {
        command: `${JEST} ${root}/`,
        options: { cwd: '{workspaceRoot}' },
        cache: true,
        dependsOn: ['^build'],
        inputs: ['default', '^production'],
      };
      return [file, { projects: { [root]: { targets: { test } } } }];
    }),
];

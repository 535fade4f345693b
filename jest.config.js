const ESM_ONLY = [
  ...['typebox', 'cookie', 'content-disposition', 'jose', 'openid-client', 'oauth4webapi'],
  ...['oauth2-mock-server', 'is-plain-obj'],
  ...['@octokit', 'universal-user-agent', 'before-after-hook', 'json-with-bigint'],
  ...['ai', '@ai-sdk', '@openrouter', '@workflow', 'eventsource-parser', 'zod'],
];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{apps,libs}/*/test/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj|mt)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // Packages published as ES modules only (and what they bring in their own node_modules): Jest
  // needs them transformed to CommonJS.
  transformIgnorePatterns: [`^(?!.*/node_modules/(${ESM_ONLY.join('|')})/).*/node_modules/`],
  moduleNameMapper: {
    '^@platform/(core|db|client|testing)$': '<rootDir>/libs/$1/src/index.ts',
    '^@platform/([a-z-]+)$': '<rootDir>/apps/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // libs/ui's Vite helpers are ES modules in TypeScript (.mts), imported as .mjs.
    '^(\\.{1,2}/.*vite-builds)\\.mjs$': '$1',
  },
  moduleFileExtensions: ['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'tsx', 'json', 'node'],
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  testTimeout: 30_000,
  // Every test file leaves 20-30 MB in the process that runs it (Jest's module registries do not
  // all go). In one process for the whole suite, the heap grew by gigabytes and the later files ran
  // 2-3 times slower than alone. A worker is replaced once a file leaves its heap above this (a
  // new one costs ~1 s); with it set, Jest never runs the files in its own process.
  workerIdleMemoryLimit: '400MB',
};

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{apps,libs}/*/test/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // typebox 1.x, cookie and content-disposition are ESM-only; Jest needs them transformed to CommonJS.
  transformIgnorePatterns: [
    '/node_modules/(?!(typebox|cookie|content-disposition|jose|openid-client|oauth4webapi|oauth2-mock-server|is-plain-obj)/)',
  ],
  moduleNameMapper: {
    '^@platform/(core|db|client|testing)$': '<rootDir>/libs/$1/src/index.ts',
    '^@platform/([a-z-]+)$': '<rootDir>/apps/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  testTimeout: 30_000,
};

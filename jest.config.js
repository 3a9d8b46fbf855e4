// One jest run for every suite: service unit and integration tests (services/*/test), frontend unit tests, port contract
// suites (services/platform/test/contracts), and the cross-service and browser suites (tests/).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/services', '<rootDir>/frontends', '<rootDir>/tests'],
  testMatch: ['**/?(*.)test.ts?(x)'],
  transform: {
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // ESM-only packages are transformed to CommonJS like our own code.
  transformIgnorePatterns: [
    '/node_modules/(?!(jose|nanoid|file-type|music-metadata|strtok3|token-types|peek-readable|@tokenizer|uint8array-extras)/)',
  ],
  testTimeout: 30000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/tests/support/summary-reporter.js'],
};

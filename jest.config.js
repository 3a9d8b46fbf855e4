// One jest run for every suite: service unit and integration tests (services/*/test), frontend unit tests, port contract
// suites (services/*/test/contracts, beside their adapters), and the cross-service and browser suites (tests/).
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
    '/node_modules/(?!(jose|nanoid|file-type|music-metadata|strtok3|token-types|peek-readable|@tokenizer|@borewit|win-guid|media-typer|uint8array-extras)/)',
  ],
  // These publish only 'import'/'module-sync' conditions, which jest's CommonJS resolver does not try: point
  // it at their Node entry (then transformed as above). Used by the storage service's inspection.
  moduleNameMapper: {
    '^file-type$': '<rootDir>/node_modules/file-type/index.js',
    '^music-metadata$': '<rootDir>/node_modules/music-metadata/lib/index.js',
  },
  setupFiles: ['<rootDir>/tests/support/jest-env.js'],
  testTimeout: 30000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/tests/support/summary-reporter.js'],
};

// One jest run for every suite: service unit and integration tests (services/*/test), port contract
// suites (services/platform/test/contracts), and the cross-service and browser suites (tests/).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/services', '<rootDir>/tests'],
  testMatch: ['**/?(*.)test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  // ESM-only packages are transformed to CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(jose|nanoid|file-type|music-metadata|strtok3|token-types|peek-readable|@tokenizer|uint8array-extras)/)'],
  testTimeout: 30000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/tests/support/summary-reporter.js'],
};

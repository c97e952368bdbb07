/** Unit tests sit beside the code (`*.spec.ts`); end-to-end tests live in test/ (`*.e2e-spec.ts`). */
const base = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  // Transpile only: `npm test` type-checks the whole project once, before jest starts.
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: { '^@app/(domain|platform|seed-data)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
};

module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools,bench}/**/*.spec.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // One fresh MariaDB/MySQL database per run, migrated by the real migrations; every test file
      // then works in organizations, environments and bots of its own.
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...base,
      // The transactional service's suites again on the stock library path (PERFORMANCE_OVERRIDES=off):
      // a drift between a performance override and the library behaviour it replaces fails here.
      displayName: 'e2e-stock',
      testMatch: ['<rootDir>/test/rest-connectors/**/*.e2e-spec.ts', '<rootDir>/test/test-runs/test-runs.e2e-spec.ts', '<rootDir>/test/security/hostile-input.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/support/stock-path.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...base,
      // `npm run bench` itself, shortened (`npm run test:bench`): never part of `npm test`, like the bench.
      displayName: 'bench',
      testMatch: ['<rootDir>/test/bench/**/*.bench-spec.ts'],
    },
  ],
  testTimeout: 30_000,
};

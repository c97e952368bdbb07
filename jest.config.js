/** Unit tests sit beside the code (`*.spec.ts`); end-to-end tests live in test/ (`*.e2e-spec.ts`). */
const base = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  // Transpile only: `npm test` type-checks the whole project once, before jest starts.
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: { '^@app/(domain|platform|seed-data)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
};

// One fresh MariaDB/MySQL database per run, migrated by the real migrations; every test file then works in
// organizations, environments and bots of its own.
const e2eDatabase = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/**
 * The release checks (`npm run test:release`, run by .ci/run after `npm test`): the runtime image rebuilt on disk,
 * which installs the production dependencies from the registry; the built app under the image's heap flags holding
 * a backlog of the largest change events (a quarter of a minute of two cores); and the Swagger UI suites, which drive
 * Chromium. `npm test` stays offline, needs no browser and stays within six minutes on two cores.
 */
const RELEASE = [
  '<rootDir>/test/deploy/runtime-image.e2e-spec.ts',
  '<rootDir>/test/connector-events/large-events.e2e-spec.ts',
  '<rootDir>/test/openapi/swagger-ui.e2e-spec.ts',
  '<rootDir>/test/openapi/swagger-ui-demo.e2e-spec.ts',
];

/**
 * The suites run a second time on the stock library path (PERFORMANCE_OVERRIDES=off), each for the switchable
 * overrides of libs/platform/src/performance whose path its assertions pin down:
 * - performance-overrides: proves which path each run is on (all of them).
 * - validation, hostile-input, api-key-auth, header-names: ValidityCheck and the validation-metadata cache (every
 *   body rule, `validateIf` and `each` included, and the words of each rejection), the pipe on path ids and queries.
 * - crud, safe-writes: PlatformExpressAdapter's reply (objects, 201/204, ETag, conditional requests) and
 *   RememberingValidationPipe on path ids.
 * - pagination, quicksearch-and-list: RememberingValidationPipe on query strings (defaults, transforms, rejections).
 * - test-runs: the test-run body (a nested connector and its variables) through ValidityCheck.
 * The other suites exercise the database, the tenancy, the events and the processes: the same code on both paths.
 * PlatformExpressAdapter's replies are compared case by case with Nest's own in platform-express.adapter.spec.ts, and
 * http-edge asserts the fast path's own request prototypes, so it runs on that path only.
 * The lazy date formatters are switched at import, so every suite above loads @nestjs/common the stock way.
 */
const STOCK_PATH = [
  'rest-connectors/performance-overrides',
  'rest-connectors/validation',
  'security/hostile-input',
  'rest-connectors/api-key-auth',
  'rest-connectors/header-names',
  'rest-connectors/crud',
  'rest-connectors/safe-writes',
  'rest-connectors/pagination',
  'rest-connectors/quicksearch-and-list',
  'test-runs/test-runs',
].map((suite) => `<rootDir>/test/${suite}.e2e-spec.ts`);

module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools,bench}/**/*.spec.ts'],
    },
    {
      ...base,
      ...e2eDatabase,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...RELEASE],
    },
    {
      ...base,
      ...e2eDatabase,
      // A drift between a performance override and the library behaviour it replaces fails here.
      displayName: 'e2e-stock',
      testMatch: STOCK_PATH,
      setupFiles: ['<rootDir>/test/support/stock-path.ts'],
    },
    {
      ...base,
      displayName: 'release',
      testMatch: RELEASE,
      // The e2e database, and one Chromium for every browser suite (they connect to it).
      globalSetup: '<rootDir>/test/support/release-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/release-global-teardown.ts',
    },
    {
      ...base,
      // The fuzz suite again, about seven times deeper (test/support/deep-fuzz.ts), run by `npm run test:release` beside the
      // release project, whose global setup (the e2e database) it shares: jest runs one module once.
      displayName: 'fuzz-deep',
      globalSetup: '<rootDir>/test/support/release-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/release-global-teardown.ts',
      testMatch: ['<rootDir>/test/security/fuzz.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/support/deep-fuzz.ts'],
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

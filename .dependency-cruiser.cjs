/**
 * The architecture, held by the imports themselves (`npm run lint` runs `depcruise`): the layers the README's
 * "Architecture" section draws, and the public surface of each library. Rules on what code does rather than what it
 * imports (no query builder, performance overrides in one folder, no HTTP exception in libs/domain) are ESLint's
 * (eslint.config.mjs).
 */
const LIBRARY_INDEX = '^libs/(domain|platform|seed-data)/src/index\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'domain-knows-no-edge',
      comment: 'libs/domain (entities, DTOs, repositories, rules) knows neither the platform plumbing, nor the seed data, nor an HTTP server or a logger.',
      severity: 'error',
      from: { path: '^libs/domain/' },
      to: { path: ['^libs/(platform|seed-data)/', '^node_modules/(express|@nestjs/platform-express|pino|pino-http|nestjs-pino)/'] },
    },
    {
      name: 'migrations-are-frozen',
      comment:
        'A migration carries the shapes and functions as of when it was written (migrations/frozen/): it imports only TypeORM and its own folder, so that a later change to the domain never changes what it writes. ESLint holds the same rule on the import text.',
      severity: 'error',
      from: { path: '^(.+/migrations/)' },
      to: { pathNot: ['^$1', '^node_modules/typeorm/'] },
    },
    {
      name: 'libraries-never-import-an-app',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'platform-knows-no-data',
      comment: 'The demo ids reach the platform through the app definitions (PlatformAppDefinition.pathExamples).',
      severity: 'error',
      from: { path: '^libs/platform/' },
      to: { path: '^libs/seed-data/' },
    },
    {
      name: 'apps-are-separate',
      comment: 'Each app is its own deployable: what two apps share lives in a library.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libraries-through-their-index',
      comment: 'Outside a library, its files are reached through its public surface (`@app/<lib>`, its index.ts) only. Tests and the bench may reach a unit they test directly.',
      severity: 'error',
      from: { path: '^(apps|tools)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: LIBRARY_INDEX },
    },
    {
      name: 'other-libraries-through-their-index',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: [LIBRARY_INDEX, '^libs/$1/'] },
    },
    {
      name: 'no-circular',
      comment: 'A cycle between modules makes their load order, and often their meaning, depend on who imports first. Type-only imports load nothing: they may close a cycle.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'production-code-never-imports-tests',
      severity: 'error',
      from: { path: '^(apps|libs|tools)/', pathNot: ['\\.spec\\.ts$', '/testing/'] },
      to: { path: ['^test/', '\\.spec\\.ts$', '/testing/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^node_modules/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// ESLint for the whole repository (`npm run lint`, part of `npm test`). Formatting is Prettier's (.prettierrc.json);
// the import boundaries are dependency-cruiser's (.dependency-cruiser.cjs). What is turned off is listed with why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Patterns of code that replaces a library's behaviour: only libs/platform/src/performance may hold them. */
const PERFORMANCE_OVERRIDES = [
  { selector: "ClassDeclaration[superClass.name='ExpressAdapter']", message: 'Replacing the Express adapter is a performance override: it lives in libs/platform/src/performance (see its README).' },
  { selector: "ClassDeclaration[superClass.name='PlatformValidationPipe']", message: 'Replacing the validation pipe is a performance override: it lives in libs/platform/src/performance.' },
  { selector: "MemberExpression[object.name='MetadataStorage'][property.name='prototype']", message: "Patching class-validator's metadata storage is a performance override: it lives in libs/platform/src/performance." },
  { selector: "AssignmentExpression[left.type='MemberExpression'][left.object.name='storage']", message: "Patching class-validator's metadata storage is a performance override: it lives in libs/platform/src/performance." },
  { selector: "NewExpression[callee.name='ValidityCheck']", message: 'ValidityCheck is a performance override: it is built in libs/platform/src/performance.' },
];

/** One data-access style (docs/decisions.md, "Data access"): hand-written SQL through Database, TableRows per entity. */
const TYPEORM_DATA_ACCESS = [
  { selector: "CallExpression[callee.property.name=/^(createQueryBuilder|getRepository|findOneBy|findOne)$/]", message: 'Data access goes through Database and a repository of hand-written SQL (docs/decisions.md, "Data access"), not TypeORM\'s query builder or repositories.' },
  { selector: "MemberExpression[property.name='manager']", message: 'No EntityManager: a unit of work is Database.transaction (docs/decisions.md).' },
  { selector: "Identifier[name=/^(EntityManager|InjectRepository)$/]", message: 'No EntityManager or injected TypeORM repository: data access goes through Database.' },
];

/** Request state is handed down explicitly (docs/decisions.md, "Read-your-writes"). */
const NO_ASYNC_LOCAL_STORAGE = {
  name: 'node:async_hooks',
  importNames: ['AsyncLocalStorage'],
  message: 'Node 20\'s promise hooks cost every request ~0.08 ms of CPU (docs/performance.md, "Read replicas"): hand request state down explicitly.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/profiles/**', 'test/client/*.schema.ts', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A function a reader can hold in their head (loadAppConfig was 34 before issue 29 split it per section). 20, not
      // 10: `a ?? default` counts as a branch, and a config or an error mapping reads as a list of them.
      complexity: ['error', 20],
      // Prettier wraps code at 160; this catches the comments it does not wrap. A string is one message or one SQL
      // statement: cut in two it is harder to search for.
      'max-len': ['error', { code: 200, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true }],
      // Off: class-validator's and Nest's own APIs type a class as `Function` (decorator targets, ValidationArguments),
      // and the platform's validation code passes those along.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Off: the input rules refuse control characters in URLs, headers and credentials, so their patterns name them.
      'no-control-regex': 'off',
      // `_` names say "unused on purpose" (a callback's position, a destructured part left out).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ASYNC_LOCAL_STORAGE] }],
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ASYNC_LOCAL_STORAGE],
          patterns: [{ group: ['@nestjs/common'], importNamePattern: 'Exception$', message: 'libs/domain knows nothing of HTTP: throw a DomainError with a code (libs/domain/src/errors/domain-error.ts).' }],
        },
      ],
    },
  },
  {
    // Frozen migrations (docs/decisions.md): each carries the shapes and functions as of when it was written, in
    // migrations/frozen/, so that a later change to the entities or the domain never changes what an old migration
    // writes. Only TypeORM and the migrations' own folder (`./…`, never `..`). The one import rule here rather than in
    // dependency-cruiser alone: the editor shows it as the import is typed; dependency-cruiser holds the same boundary
    // on resolved paths (`migrations-are-frozen`), require() and import() included.
    files: ['**/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!typeorm$|\\./(?!.*\\.\\.)).*',
              message: 'A migration imports only typeorm and files of the migrations folder: copy what it needs, as of now, into migrations/frozen/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'tools/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/testing/**', 'libs/platform/src/performance/**', 'libs/domain/src/database/migrations/**'],
    rules: { 'no-restricted-syntax': ['error', ...PERFORMANCE_OVERRIDES, ...TYPEORM_DATA_ACCESS] },
  },
  {
    files: ['libs/platform/src/performance/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TYPEORM_DATA_ACCESS] },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Specs and test support build objects of partial shape on purpose (a fake request, a hostile body).
      '@typescript-eslint/no-explicit-any': 'off',
      // Tests and the bench measure and probe: their functions are scenarios, read top to bottom.
      complexity: 'off',
    },
  },
);

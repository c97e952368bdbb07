const { dirname, join } = require('node:path');

/**
 * The transactional service's bundle, plus the scripts of its worker threads as entries beside main.js: the answer
 * reader's (apps/transactional-service/src/rest-connectors/test-runs/answer/answer-reader.ts loads it from there) and
 * the import reader's (…/import-export/import-reader.ts). Everything else is Nest's default webpack configuration, unchanged.
 */
module.exports = (defaults) => ({
  ...defaults,
  entry: {
    main: defaults.entry,
    'answer.worker': './apps/transactional-service/src/rest-connectors/test-runs/answer/answer.worker.ts',
    'import.worker': './apps/transactional-service/src/rest-connectors/import-export/import.worker.ts',
  },
  // Nest names the bundle `<the app's folder>/main.js` under dist/: the worker goes beside it.
  output: { ...defaults.output, filename: join(dirname(defaults.output.filename), '[name].js'), library: { type: 'commonjs2' } },
});

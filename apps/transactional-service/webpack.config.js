const { dirname, join } = require('node:path');

/**
 * The transactional service's bundle, plus the script of its answer reader's worker threads as a second
 * entry beside main.js (apps/transactional-service/src/rest-connectors/test-runs/answer/answer-reader.ts
 * loads it from there). Everything else is Nest's default webpack configuration, unchanged.
 */
module.exports = (defaults) => ({
  ...defaults,
  entry: {
    main: defaults.entry,
    'answer.worker': './apps/transactional-service/src/rest-connectors/test-runs/answer/answer.worker.ts',
  },
  // Nest names the bundle `<the app's folder>/main.js` under dist/: the worker goes beside it.
  output: { ...defaults.output, filename: join(dirname(defaults.output.filename), '[name].js'), library: { type: 'commonjs2' } },
});

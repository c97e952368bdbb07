const { readdirSync, readFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');
const transpileOnly = require('../../tools/build/webpack.config');

/** The AsyncAPI documents the app serves (PlatformAppDefinition.asyncApiDocument, read beside the bundle). */
const ASYNCAPI_DIR = resolve(__dirname, '..', '..', 'docs', 'asyncapi');

/**
 * Emits every file of docs/asyncapi beside main.js, as it is: the built app (dist/, the image) serves its AsyncAPI
 * document without the repository's docs/ (libs/platform/src/swagger/asyncapi-document.ts).
 */
class AsyncApiDocumentsPlugin {
  constructor(outputDir) {
    this.outputDir = outputDir;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(AsyncApiDocumentsPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap({ name: AsyncApiDocumentsPlugin.name, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.contextDependencies.add(ASYNCAPI_DIR);
        for (const file of readdirSync(ASYNCAPI_DIR)) {
          compilation.emitAsset(join(this.outputDir, file), new sources.RawSource(readFileSync(join(ASYNCAPI_DIR, file))));
        }
      });
    });
  }
}

/**
 * The transactional service's bundle, plus the scripts of its worker threads as entries beside main.js, where
 * workerScript (apps/transactional-service/src/workers/worker-script.ts) finds them: the answer reader's
 * (…/rest-connectors/test-runs/answer/answer-reader.ts) and the import reader's (…/import-export/import-reader.ts);
 * and its AsyncAPI documents beside them (AsyncApiDocumentsPlugin).
 * Everything else is the project's configuration for every bundle (tools/build/webpack.config.js).
 */
module.exports = (nestDefaults) => {
  const defaults = transpileOnly(nestDefaults);
  return {
    ...defaults,
    entry: {
      main: defaults.entry,
      'answer.worker': './apps/transactional-service/src/rest-connectors/test-runs/answer/answer.worker.ts',
      'import.worker': './apps/transactional-service/src/rest-connectors/import-export/import.worker.ts',
    },
    // Nest names the bundle `<the app's folder>/main.js` under dist/: the worker goes beside it.
    output: { ...defaults.output, filename: join(dirname(defaults.output.filename), '[name].js'), library: { type: 'commonjs2' } },
    plugins: [...defaults.plugins, new AsyncApiDocumentsPlugin(dirname(defaults.output.filename))],
  };
};

/**
 * Nest's default webpack configuration, without its type check (ForkTsCheckerWebpackPlugin): the bundles are
 * transpiled only, and the project is type-checked once, as a whole, by `npm run typecheck` (the first step of
 * `npm test`). Each app's webpack configuration (nest-cli.json's webpackConfigPath) starts from this one.
 */
module.exports = (defaults) => ({
  ...defaults,
  plugins: (defaults.plugins ?? []).filter((plugin) => plugin.constructor.name !== 'ForkTsCheckerWebpackPlugin'),
});

/**
 * The e2e-stock jest project: its suites build their apps with PERFORMANCE_OVERRIDES=off (test-config.ts),
 * on Nest's ExpressAdapter, the stock ValidationPipe and class-validator unpatched. The same assertions
 * pass on both paths, or an override has drifted from the library behaviour it replaces.
 */
process.env.PERFORMANCE_OVERRIDES = 'off';

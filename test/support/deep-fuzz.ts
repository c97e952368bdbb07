/**
 * The release project's second run of the fuzz suite (test/security/fuzz.e2e-spec.ts): about seven times the runs of each
 * property that `npm test` makes. `npm test` fuzzes every change with new inputs; CI (`npm run test:release`) fuzzes
 * deep. FUZZ_RUNS set by the caller wins.
 */
process.env.FUZZ_RUNS ??= '1000';

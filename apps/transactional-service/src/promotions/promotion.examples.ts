import { DEMO_IDS } from '@app/seed-data';

/** The demo's staging copy of the support bot: what the examples promote into the path's (production) bot. */
const DEMO_SOURCE = { envUUID: DEMO_IDS.acmeStaging, botUUID: DEMO_IDS.stagingBot };

/** Examples of `POST …/rest-connectors/promotions` (Swagger UI "Try it out"), run against the demo data of `npm start`. */
export const PROMOTION_EXAMPLES = {
  plan: {
    summary: 'Plan: the staging bot into this one (a dry run)',
    description: 'Answers what each connector becomes, the variables and secrets the target needs, and the digest to apply it with.',
    value: { source: DEMO_SOURCE },
  },
  planWithPrune: {
    summary: 'Plan with prune: also delete what staging no longer has',
    value: { source: DEMO_SOURCE, prune: true },
  },
  apply: {
    summary: 'Apply a plan (paste the digest of its dry run)',
    description: 'A different digest is a 409: something changed since the dry run; run it again.',
    value: { source: DEMO_SOURCE, dryRun: false, digest: 'sha256:9f2c0d3b5e6a7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f701' },
  },
};

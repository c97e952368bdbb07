/**
 * The lint the committed OpenAPI documents must pass (tools/openapi/openapi-lint.spec.ts, in `npm test`):
 * Spectral's `spectral:oas` and the OWASP API security ruleset, both from node_modules (nothing is fetched),
 * with only the rules judged noise for this API turned off or narrowed, each with its reason.
 */
import { RuleDefinition, RulesetDefinition } from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

/** The schemas that match `filter` where a client's input is described: parameters and request bodies, `$ref`s followed. */
const inputs = (filter: string) => [
  `$.paths[*][*].parameters[*][?(@property == "schema" && ${filter})]`,
  `$.paths[*][*].parameters[*].schema..[?(${filter})]`,
  `$.paths[*][*].requestBody.content[*][?(@property == "schema" && ${filter})]`,
  `$.paths[*][*].requestBody.content[*].schema..[?(${filter})]`,
];

/**
 * OWASP API3 (mass assignment) and API4 (unrestricted resource consumption) ask every object to be closed and
 * every string, array and integer bounded. That protects a server from what clients send; the ruleset applies
 * it to answers too, which bound nothing. These rules keep their checks and severities, on inputs only, with
 * the rule's own filter.
 */
const onInputsOnly = (rule: string, filter: string): RuleDefinition => ({ ...(owasp.rules as Record<string, RuleDefinition>)[rule], given: inputs(filter) });

export const SPECTRAL_RULESET: RulesetDefinition = {
  extends: [
    [oas as RulesetDefinition, 'recommended'],
    [owasp as RulesetDefinition, 'recommended'],
  ],
  rules: {
    'owasp:api4:2023-string-limit': onInputsOnly('owasp:api4:2023-string-limit', '@ && @.type=="string"'),
    'owasp:api4:2023-array-limit': onInputsOnly('owasp:api4:2023-array-limit', '@ && @.type=="array"'),
    'owasp:api4:2023-integer-limit-legacy': onInputsOnly('owasp:api4:2023-integer-limit-legacy', '@ && @.type=="integer"'),
    // A map by design (a test run's `variables`: names to values) is bounded by its own maxProperties and value
    // schema, which constrained-additionalProperties still requires; every other input object must be closed.
    'owasp:api3:2023-no-additionalProperties': onInputsOnly(
      'owasp:api3:2023-no-additionalProperties',
      '@ && @.type=="object" && @.additionalProperties && !@.maxProperties',
    ),
    'owasp:api3:2023-constrained-additionalProperties': onInputsOnly(
      'owasp:api3:2023-constrained-additionalProperties',
      '@ && @.type=="object" && @.additionalProperties && @.additionalProperties!=true && @.additionalProperties!=false',
    ),
    // Names, descriptions, bodies, secrets and URL templates with `{{placeholders}}` are free text: no format or
    // pattern describes them; their bound is the maxLength the string-limit rule requires.
    'owasp:api4:2023-string-restricted': 'off',
    // The documents serve every deployment (local, each cluster): the host is the caller's, not the document's.
    'oas3-api-servers': 'off',
    // CORS origins are deployment configuration (CORS_ORIGINS), and the header is sent only to an allowed Origin.
    'owasp:api8:2023-define-cors-origin': 'off',
    // X-RateLimit-* are declared on every answer that carries them; 401, 403, 413, 415 and 429 are given before the
    // limit counts, and response-headers.e2e-spec checks the declarations against the headers actually sent.
    'owasp:api4:2023-rate-limit': 'off',
  },
};

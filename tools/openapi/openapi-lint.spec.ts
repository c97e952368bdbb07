import { Document, ISpectralDiagnostic, Ruleset, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SPECTRAL_RULESET } from './spectral-ruleset';

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const describeResult = (result: ISpectralDiagnostic) => `${SEVERITY[result.severity]} ${result.code} at ${result.path.join('.')}: ${result.message}`;

/** Spectral with the committed ruleset (spectral-ruleset.ts), run in-process: nothing is fetched. */
function lint(text: string, file: string): Promise<ISpectralDiagnostic[]> {
  const spectral = new Spectral();
  spectral.setRuleset(new Ruleset(SPECTRAL_RULESET, { source: join(__dirname, 'spectral-ruleset.ts') }));
  return spectral.run(new Document(text, Json, file));
}

describe.each(['transactional-service', 'environment', 'bot-admin'])('Spectral (spectral:oas and OWASP) on docs/openapi/%s.json', (app) => {
  it('finds no error and no warning', async () => {
    const file = resolve(__dirname, '..', '..', 'docs', 'openapi', `${app}.json`);

    const results = await lint(readFileSync(file, 'utf8'), file);

    expect(results.filter((result) => result.severity <= 1).map(describeResult)).toEqual([]);
  });
});

describe('The OWASP limits narrowed to inputs', () => {
  it('still find an unbounded parameter, body string, array and map, through $refs, and leave answers alone', async () => {
    const unbounded = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
        labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 5 } },
        bounded: { type: 'object', maxProperties: 3, additionalProperties: { type: 'string', maxLength: 5 } },
      },
    };
    const document = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          post: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Answer' } } } } },
          },
        },
      },
      components: { schemas: { Input: unbounded, Answer: unbounded } },
    };

    const results = await lint(JSON.stringify(document), resolve(__dirname, 'inline.json'));
    const found = (code: string) => results.filter((result) => result.code === code).map((result) => result.path.join('.'));

    expect(found('owasp:api4:2023-string-limit').sort()).toEqual(['components.schemas.Input.properties.name', 'paths./things.post.parameters.0.schema']);
    expect(found('owasp:api4:2023-array-limit')).toEqual(['components.schemas.Input.properties.tags']);
    expect(found('owasp:api3:2023-constrained-additionalProperties')).toEqual(['components.schemas.Input.properties.labels']);
    // An open map must be bounded: the one without maxProperties is still found, the bounded one is a map by design.
    expect(found('owasp:api3:2023-no-additionalProperties')).toEqual(['components.schemas.Input.properties.labels.additionalProperties']);
  });
});

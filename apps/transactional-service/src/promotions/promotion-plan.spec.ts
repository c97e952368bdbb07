import { ApiKeyIn, AuthType, ConnectorVariableRow, connectorSnapshot, PromotionAction, RestConnector } from '@app/domain';
import { aStoredConnector } from '../rest-connectors/testing/connector-factories';
import { PlanInput, planPromotion } from './promotion-plan';

const SOURCE_BOT = '11111111-1111-4111-8111-111111111111';
const TARGET_BOT = '22222222-2222-4222-8222-222222222222';
let uuids = 0;
const nextUuid = () => `0192f0a0-0000-7000-8000-${String(++uuids).padStart(12, '0')}`;

/** A source connector as the promotion reads it: its record only. */
const aSource = (overrides: Partial<RestConnector> = {}, tags = [{ name: 'weather' }]) => {
  const connector = aStoredConnector({ uuid: nextUuid(), version: 3, ...overrides });
  return { uuid: connector.uuid, version: connector.version, snapshot: connectorSnapshot(connector, tags) };
};
/** A target connector as a write starts from it: its row (secrets sealed) and its record. */
const aTarget = (overrides: Partial<RestConnector> = {}, tags = [{ name: 'weather' }]) => {
  const connector = aStoredConnector({ uuid: nextUuid(), botUuid: TARGET_BOT, version: 2, ...overrides });
  return { connector, snapshot: connectorSnapshot(connector, tags) };
};
const plain = (name: string, value: string): ConnectorVariableRow => ({
  name,
  secret: false,
  value,
  sealedValue: null,
  destinations: [],
  updatedAt: new Date(0),
  updatedBy: 'ada',
});

const input = (overrides: Partial<PlanInput>): PlanInput => ({
  sourceBotUuid: SOURCE_BOT,
  targetBotUuid: TARGET_BOT,
  source: [],
  target: [],
  variables: { version: 0, variables: [] },
  secrets: [],
  prune: false,
  ...overrides,
});
const actions = (plan: ReturnType<typeof planPromotion>) => plan.connectors.map(({ name, action }) => [name, action]);

describe(planPromotion.name, () => {
  it('matches connectors by name, case-insensitively: creates, updates (the recorded fields that differ, tags included) and leaves the same alone', () => {
    const plan = planPromotion(
      input({
        source: [
          aSource({ name: 'Weather' }),
          aSource({ name: 'orders', description: 'v2' }),
          aSource({ name: 'New one' }),
          aSource({ name: 'Tagged' }, [{ name: 'b' }]),
        ],
        target: [
          aTarget({ name: 'weather' }),
          aTarget({ name: 'Orders', description: 'v1' }),
          aTarget({ name: 'Tagged' }, [{ name: 'a' }]),
          aTarget({ name: 'Kept' }),
        ],
      }),
    );

    expect(actions(plan)).toEqual([
      ['New one', PromotionAction.CREATE],
      ['orders', PromotionAction.UPDATE],
      ['Tagged', PromotionAction.UPDATE],
      ['Weather', PromotionAction.UPDATE],
    ]);
    expect(plan.connectors.map(({ changedFields }) => changedFields)).toEqual([
      ['name', 'requestType', 'url', 'contentType', 'authType', 'output', 'tags'],
      ['name', 'description'],
      ['tags'],
      ['name'],
    ]);
    expect(plan.counts).toEqual({ create: 1, update: 3, delete: 0, unchanged: 0 });
  });

  it("deletes the target's connectors the source lacks only with prune; an identical one is UNCHANGED", () => {
    const source = [aSource({ name: 'Same' })];
    const target = [aTarget({ name: 'Same' }), aTarget({ name: 'Gone' })];

    expect(actions(planPromotion(input({ source, target })))).toEqual([['Same', PromotionAction.UNCHANGED]]);
    const pruned = planPromotion(input({ source, target, prune: true }));
    expect(actions(pruned)).toEqual([
      ['Gone', PromotionAction.DELETE],
      ['Same', PromotionAction.UNCHANGED],
    ]);
    expect(pruned.connectors[0]).toMatchObject({ source: null, target: target[1], changedFields: [], secrets: [] });
    expect(pruned.counts).toEqual({ create: 0, update: 0, delete: 1, unchanged: 1 });
  });

  it("keeps the target's secret while where it goes in the TARGET environment is unchanged, else needs it, unless given", () => {
    const bearer = { authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>' };
    const variables = { version: 4, variables: [plain('HOST', 'https://api.prod.example.com')] };
    const plan = planPromotion(
      input({
        variables,
        source: [
          // Its destination in prod is the target's: kept, though the URLs differ.
          aSource({ name: 'Env host', url: '{{env.HOST}}/v2/orders', ...bearer }),
          aSource({ name: 'Moved', url: 'https://api.dev.example.com/', ...bearer }),
          aSource({ name: 'Created', url: 'https://api.prod.example.com/', ...bearer }),
          aSource({ name: 'Given', url: 'https://api.dev.example.com/', ...bearer }),
          aSource({ name: 'Key elsewhere', authType: AuthType.AUTH_API_KEY, apiKey: '<API_KEY>', apiKeyIn: ApiKeyIn.QUERY, apiKeyName: 'key' }),
          aSource({
            name: 'Headers',
            url: 'https://keys.example.com/',
            headers: [
              { header: 'X-Key', value: '<SECRET>', secret: true },
              { header: 'X-Other', value: '<SECRET>', secret: true },
            ],
          }),
        ],
        target: [
          aTarget({ name: 'Env host', url: 'https://api.prod.example.com/v1/orders', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:prod' }),
          aTarget({ name: 'Moved', url: 'https://api.prod.example.com/', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:prod' }),
          aTarget({ name: 'Given', url: 'https://api.dev.example.com/', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:prod' }),
          aTarget({ name: 'Key elsewhere', authType: AuthType.AUTH_API_KEY, apiKey: 'sealed:key', apiKeyIn: ApiKeyIn.HEADER, apiKeyName: 'key' }),
          aTarget({ name: 'Headers', url: 'https://keys.example.com/other', headers: [{ header: 'x-key', value: 'sealed:k', secret: true }] }),
        ],
        secrets: [
          { connector: 'GIVEN', bearerToken: 'prod-token' },
          { connector: 'headers', headers: [{ header: 'x-other', value: 'other' }] },
        ],
      }),
    );

    const secrets = Object.fromEntries(plan.connectors.map(({ name, secrets }) => [name, secrets.map(({ secret, status }) => `${secret}:${status}`)]));
    expect(secrets).toEqual({
      Created: ['bearerToken:NEEDED'],
      'Env host': ['bearerToken:KEPT'],
      Given: ['bearerToken:GIVEN'],
      Headers: ['headers.X-Key:KEPT', 'headers.X-Other:GIVEN'],
      'Key elsewhere': ['apiKey:NEEDED'],
      Moved: ['bearerToken:NEEDED'],
    });
    // A given secret counts as changed (its value is not compared); a kept one does not.
    expect(plan.connectors.find(({ name }) => name === 'Given')!.changedFields).toEqual(['bearerToken']);
    expect(plan.connectors.find(({ name }) => name === 'Headers')!.changedFields).toEqual(['url', 'headers']);
  });

  it("lists the variables the source's records use that the target lacks, and its secret ones without a value; never a secret header's value", () => {
    const plan = planPromotion(
      input({
        source: [
          aSource({
            name: 'Uses',
            url: 'https://{{env.HOST}}/{{id}}',
            oauthUrl: 'https://{{env.AUTH}}/token',
            headers: [
              { header: 'X-Tenant', value: '{{env.TENANT}}' },
              { header: 'X-Key', value: '<SECRET>', secret: true },
            ],
            body: '{"region": "{{env.REGION}}"}',
          }),
        ],
        variables: {
          version: 2,
          variables: [
            plain('HOST', 'api.example.com'),
            { ...plain('TENANT', ''), secret: true, value: null, sealedValue: null, destinations: ['https://x.example.com'] },
          ],
        },
      }),
    );

    expect(plan.variables).toEqual({ missing: ['AUTH', 'REGION'], withoutValue: ['TENANT'] });
  });

  it("digests both sides' versions, the target's variable set and prune: the same plan gives the same digest, any change another", () => {
    const bearer = { authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>' };
    const source = [aSource({ name: 'A', ...bearer })];
    const target = [aTarget({ name: 'A', description: 'x', ...bearer })];
    const base = input({ source, target, variables: { version: 1, variables: [] } });
    const { digest } = planPromotion(base);

    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(planPromotion({ ...base, secrets: [{ connector: 'A', bearerToken: 'x' }] }).digest).toBe(digest);
    expect(planPromotion({ ...base, target: [{ ...target[0], connector: { ...target[0].connector, version: 3 } }] }).digest).not.toBe(digest);
    expect(planPromotion({ ...base, source: [{ ...source[0], version: 4 }] }).digest).not.toBe(digest);
    expect(planPromotion({ ...base, variables: { version: 2, variables: [] } }).digest).not.toBe(digest);
    expect(planPromotion({ ...base, prune: true }).digest).not.toBe(digest);
  });
});

import { AuthType, ConnectorVariableRow } from '@app/domain';
import { BindingSource } from '../env-destinations';
import { EnvironmentUser, importEnvironment } from './import-environment';

const aConnector = (overrides: Partial<BindingSource> = {}): BindingSource =>
  ({
    url: '{{env.baseUrl}}/orders',
    oauthUrl: null,
    authType: AuthType.AUTH_NONE,
    grantType: null,
    headers: [],
    body: '',
    bearerToken: null,
    basicToken: null,
    clientSecret: null,
    authPassword: null,
    apiKey: null,
    ...overrides,
  }) as BindingSource;
const user = (connector: BindingSource, index = 0): EnvironmentUser => ({ connector, label: `connectors.${index} (item "x")` });
const row = (name: string, value: string | null, secret = false): ConnectorVariableRow => ({
  name,
  secret,
  value: secret ? null : value,
  sealedValue: secret ? 'enc:v1:sealed' : null,
  destinations: secret ? ['https://api.example.com'] : [],
  updatedAt: new Date(0),
  updatedBy: 'someone',
});
const environment = (values: Array<{ key: string; value?: string; type?: 'default' | 'secret'; enabled?: boolean }>) => ({ name: 'Staging', values });

describe(importEnvironment.name, () => {
  it('lists each variable the connectors use against the environment: DEFINED, FILLED from the Postman environment, MISSING; never overwrites', () => {
    const users = [
      user(aConnector({ headers: [{ header: 'X-Tenant', value: '{{env.tenant}}' }] }), 0),
      user(aConnector({ url: '{{env.baseUrl}}/users', body: '{"region": "{{env.region}}"}' }), 1),
    ];
    const result = importEnvironment(
      users,
      [row('baseUrl', 'https://api.example.com')],
      environment([
        { key: 'baseUrl', value: 'https://elsewhere.example.com' },
        { key: 'tenant', value: 'acme', type: 'default' },
        { key: 'region', value: 'eu', enabled: false },
        { key: 'unused', value: 'x' },
      ]),
      [],
    );
    expect(result.environmentVariables).toEqual([
      { name: 'baseUrl', secret: false, status: 'DEFINED', usedBy: 2 },
      { name: 'tenant', secret: false, status: 'FILLED', usedBy: 1, source: 'POSTMAN_ENVIRONMENT', value: 'acme' },
      { name: 'region', secret: false, status: 'MISSING', usedBy: 1 },
    ]);
    expect(result.variablesToFill).toEqual([{ name: 'tenant', value: 'acme', secret: false, destinations: [] }]);
    expect(result.warnings.map(({ code, message }) => [code, message])).toEqual([
      ['ENVIRONMENT_VALUES_NOT_USED', 'No imported connector uses "unused": not written.'],
      [
        'ENVIRONMENT_VALUES_KEPT',
        'The environment already defines "baseUrl": its values are kept (an import never overwrites one; change them with PUT …/connector-variables).',
      ],
    ]);
    expect(result.problems).toEqual([]);
  });

  it('binds a secret value to the hosts of the connectors that use it, resolved with the values it fills', () => {
    const users = [
      user(aConnector({ headers: [{ header: 'X-Key', value: '{{env.key}}' }] }), 0),
      user(aConnector({ url: 'https://other.example.com:8443/x', body: 'key={{env.key}}' }), 1),
    ];
    const result = importEnvironment(
      users,
      [],
      environment([
        { key: 'baseUrl', value: 'https://API.example.com/v1' },
        { key: 'key', value: 's3cr3t', type: 'secret' },
      ]),
      [],
    );
    expect(result.variablesToFill).toEqual([
      { name: 'baseUrl', value: 'https://API.example.com/v1', secret: false, destinations: [] },
      { name: 'key', value: 's3cr3t', secret: true, destinations: ['https://api.example.com', 'https://other.example.com:8443'] },
    ]);
    expect(result.environmentVariables[1]).toEqual({
      name: 'key',
      secret: true,
      status: 'FILLED',
      usedBy: 2,
      source: 'POSTMAN_ENVIRONMENT',
      destinations: ['https://api.example.com', 'https://other.example.com:8443'],
    });
    expect(JSON.stringify(result.environmentVariables)).not.toContain('s3cr3t');
  });

  it('fills no secret that stands in a destination, nor one whose connectors go where nothing tells yet', () => {
    const result = importEnvironment(
      [user(aConnector({ url: '{{env.host}}/x' })), user(aConnector({ url: '{{env.base}}/y', body: '{{env.token}}' }), 1)],
      [],
      environment([
        { key: 'host', value: 'https://a.example.com', type: 'secret' },
        { key: 'token', value: 't', type: 'secret' },
      ]),
      [],
    );
    expect(result.variablesToFill).toEqual([]);
    expect(result.environmentVariables.map(({ name, status }) => [name, status])).toEqual([
      ['host', 'MISSING'],
      ['base', 'MISSING'],
      ['token', 'MISSING'],
    ]);
    expect(result.warnings.map(({ code }) => code)).toEqual(['ENVIRONMENT_SECRET_NOT_FILLED', 'ENVIRONMENT_SECRET_NOT_FILLED']);
  });

  it('adds http:// to a filled value that starts a URL without a scheme, as Postman does; an OpenAPI default fills what the Postman environment does not', () => {
    const result = importEnvironment(
      [user(aConnector({ url: '{{env.host}}/x' })), user(aConnector({ url: 'https://{{env.region}}.example.com/' }), 1)],
      [],
      environment([{ key: 'host', value: 'localhost:3000' }]),
      [{ name: 'region', value: 'eu', where: 'server' }],
    );
    expect(result.variablesToFill).toEqual([
      { name: 'host', value: 'http://localhost:3000', secret: false, destinations: [] },
      { name: 'region', value: 'eu', secret: false, destinations: [] },
    ]);
    expect(result.environmentVariables[1]).toMatchObject({ status: 'FILLED', source: 'OPENAPI_SERVER' });
    expect(result.warnings.map(({ code }) => code)).toEqual(['ENVIRONMENT_SCHEME_ADDED']);
  });

  it('refuses a URL that carries a secret whose destination comes from a variable the environment cannot fill, naming it', () => {
    const bearer = aConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'stand-in' });
    expect(importEnvironment([user(bearer)], [], undefined, []).problems).toEqual([
      'connectors.0 (item "x"): url\'s scheme, host or port comes from {{env.baseUrl}}, which the environment does not define, while a secret goes there: ' +
        'define baseUrl (a plain value) with PUT …/connector-variables first, or give its value in postmanEnvironment',
    ]);
    expect(importEnvironment([user(bearer)], [row('baseUrl', null, true)], undefined, []).problems[0]).toMatch(/which is a secret variable/);
    expect(importEnvironment([user(bearer)], [row('baseUrl', 'https://api.example.com')], undefined, []).problems).toEqual([]);
    expect(importEnvironment([user(bearer)], [], environment([{ key: 'baseUrl', value: 'https://api.example.com' }]), []).problems).toEqual([]);
  });

  it('refuses more variables than an environment holds', () => {
    const rows = Array.from({ length: 200 }, (_, index) => row(`v${index}`, 'x'));
    const result = importEnvironment([user(aConnector({ url: 'https://{{env.new}}.example.com/' }))], rows, environment([{ key: 'new', value: 'n' }]), []);
    expect(result.problems).toEqual([
      expect.stringMatching(/^the environment has 200 connector variables and the import would add 1: an environment holds at most 200/),
    ]);
  });
});

import { AuthType, GrantType } from '@app/domain';
import { BadRequestException } from '@nestjs/common';
import { toConnectorWrite } from './connector-write';
import { aStoredConnector, aWriteDto, WRITER } from './testing/connector-factories';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const seal = (field: string, plaintext: string) => `sealed(${field}:${plaintext})`;

/** The messages of the 400 toConnectorWrite throws. */
function problemsOf(write: () => unknown): string[] {
  try {
    write();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: string[] }).message;
  }
  throw new Error('expected a 400');
}

describe(toConnectorWrite.name, () => {
  it('writes every field of the body, the writer and the time; name keys lower-cased', () => {
    const { values } = toConnectorWrite(aWriteDto({ name: 'Weather Forecast' }), WRITER, NOW, seal);

    expect(values).toMatchObject({
      name: 'Weather Forecast',
      nameKey: 'weather forecast',
      activeNameKey: 'weather forecast',
      description: null,
      headers: [{ header: 'Accept', value: 'application/json' }],
      updatedAt: NOW,
      updatedBy: 'alice',
      updatedByImage: WRITER.picture,
    });
  });

  it('seals a new secret and discards the secrets the auth type does not use', () => {
    const dto = aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'b-token', basicToken: 'unused', clientSecret: 'unused' });

    const { values } = toConnectorWrite(dto, WRITER, NOW, seal);

    expect(values).toMatchObject({ bearerToken: 'sealed(bearerToken:b-token)', basicToken: null, clientSecret: null, authPassword: null });
  });

  it('keeps the stored secret for its placeholder while the URL keeps its scheme and authority', () => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer' });
    const dto = aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>', url: 'HTTPS://API.example.com/other/path' });

    const { values } = toConnectorWrite(dto, WRITER, NOW, seal, stored);

    expect(values.bearerToken).toBe('sealed:bearer');
  });

  it.each([
    ['http (a downgrade)', 'http://api.example.com/forecast'],
    ['another host', 'https://evil.example.net/forecast'],
    ['another port', 'https://api.example.com:8443/forecast'],
    ['user info', 'https://user@api.example.com/forecast'],
  ])('asks for the secret again when the URL moves to %s', (_what, url) => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer' });

    const problems = problemsOf(() => toConnectorWrite(aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>', url }), WRITER, NOW, seal, stored));

    expect(problems).toEqual([expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/)]);
  });

  it('binds OAuth secrets to oauthUrl, not url', () => {
    const stored = aStoredConnector({
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.CLIENT_CREDENTIALS,
      clientId: 'c',
      oauthUrl: 'https://id.example.com/token',
      clientSecret: 'sealed:client',
    });
    const oauth = { authType: AuthType.AUTH_OAUTH2, grantType: GrantType.CLIENT_CREDENTIALS, clientId: 'c', clientSecret: '<CLIENT_SECRET>' };

    expect(toConnectorWrite(aWriteDto({ ...oauth, oauthUrl: 'https://id.example.com/token', url: 'https://elsewhere.example.org/' }), WRITER, NOW, seal, stored).values.clientSecret).toBe('sealed:client');
    expect(problemsOf(() => toConnectorWrite(aWriteDto({ ...oauth, oauthUrl: 'https://id.example.net/token' }), WRITER, NOW, seal, stored))).toEqual([
      expect.stringMatching(/^clientSecret must be sent again: oauthUrl/),
    ]);
  });

  it('refuses a placeholder where no secret is stored, on a create or a PUT', () => {
    const dto = aWriteDto({ authType: AuthType.AUTH_BASIC, basicToken: '<BASIC_TOKEN>' });

    expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal))).toEqual([expect.stringMatching(/^basicToken must be the secret itself/)]);
    expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal, aStoredConnector()))).toHaveLength(1);
  });

  it('de-duplicates tags case-insensitively, keeping the first spelling, in the order written', () => {
    const dto = aWriteDto({ tags: [{ name: 'Shop' }, { name: 'stock' }, { name: 'SHOP' }, { name: 'Stock' }, { name: 'eu' }] });

    const { tags } = toConnectorWrite(dto, WRITER, NOW, seal);

    expect(tags).toEqual([
      { name: 'Shop', nameKey: 'shop', position: 0 },
      { name: 'stock', nameKey: 'stock', position: 1 },
      { name: 'eu', nameKey: 'eu', position: 2 },
    ]);
  });
});

import { validateImport } from './import-validator';

const ORG = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const ENV = '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02';

describe(validateImport.name, () => {
  it('names every value of the wrong shape at any depth, an array of arrays included', () => {
    const { reasons, file } = validateImport({
      organizations: [[{ uuid: ORG, name: 'Nested' }]],
      environments: [{ uuid: ENV, organizationUuid: ORG, name: 'Env', applications: [[]], permissions: [['x']] }],
      flows: [{ uuid: ENV, botUuid: ORG, name: 'Flow', connectors: [[ORG]] }],
    });

    expect(file).toBeUndefined();
    expect(reasons).toEqual(
      expect.arrayContaining([
        '$.organizations[0]: must be an object',
        '$.environments[0].applications[0]: must be an object',
        '$.environments[0].permissions[0]: must be a string',
        '$.flows[0].connectors[0]: must be a UUID',
      ]),
    );
  });

  it('refuses a lone surrogate and NUL in any text, and CR or LF in a name', () => {
    const { reasons } = validateImport({
      organizations: [{ uuid: ORG, name: 'Org\ud800' }],
      environments: [{ uuid: ENV, organizationUuid: ORG, name: 'Line\r\nbreak', dns: 'a\u0000b' }],
    });

    expect(reasons).toEqual([
      '$.organizations[0].name: must not contain a lone UTF-16 surrogate',
      '$.environments[0].name: must not contain CR, LF or NUL characters',
      '$.environments[0].dns: must not contain NUL characters',
    ]);
  });

  it('keeps well-formed text as written, line breaks in free text included', () => {
    const { reasons, file } = validateImport({
      organizations: [{ uuid: ORG, name: 'Café 🎉' }],
      environments: [{ uuid: ENV, organizationUuid: ORG, name: 'Env', applications: [{ name: 'a', version: '1', properties: { note: 'two\nlines' } }] }],
    });

    expect(reasons).toEqual([]);
    expect(file?.organizations?.[0].name).toBe('Café 🎉');
  });
});

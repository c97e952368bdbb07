import { AuthType, connectorSnapshot, fieldsSetBy, RECORDED_FIELDS } from '@app/domain';
import { aStoredConnector, aWriteDto } from '../testing/connector-factories';
import { changedSecrets, fieldsChanged, sameTags } from './version-changes';

const snapshot = (overrides: Parameters<typeof aStoredConnector>[0] = {}, tags = [{ name: 'weather' }]) => connectorSnapshot(aStoredConnector(overrides), tags);

describe('fieldsSetBy', () => {
  it('names every field a creation gave a value, in the record order, never the id or who wrote it when', () => {
    expect(fieldsSetBy(snapshot({ description: 'd', authType: AuthType.AUTH_BASIC, basicToken: 'sealed' }))).toEqual([
      'name',
      'description',
      'requestType',
      'url',
      'contentType',
      'authType',
      'basicToken',
      'output',
      'tags',
    ]);
    expect(RECORDED_FIELDS).not.toContain('uuid');
    expect(RECORDED_FIELDS).not.toContain('updatedAt');
  });
});

describe('fieldsChanged', () => {
  it('compares every field by value (headers and tags deeply) and secrets only as changedSecrets says', () => {
    const before = snapshot({ headers: [{ header: 'A', value: '1' }], authType: AuthType.AUTH_BEARER, bearerToken: 'sealed' });
    const same = snapshot({ headers: [{ header: 'A', value: '1' }], authType: AuthType.AUTH_BEARER, bearerToken: 'sealed' });
    const after = snapshot({ headers: [{ header: 'A', value: '2' }], name: 'Other', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed' }, [
      { name: 'Weather' },
    ]);

    expect(fieldsChanged(before, same, [])).toEqual([]);
    expect(fieldsChanged(before, same, ['bearerToken'])).toEqual(['bearerToken']);
    expect(fieldsChanged(before, after, [])).toEqual(['name', 'headers', 'tags']);
  });

  it('without a recorded record before, names what the write sets', () => {
    expect(fieldsChanged(null, snapshot(), [])).toEqual(fieldsSetBy(snapshot()));
  });
});

describe('changedSecrets', () => {
  const decryptsTo = (plaintext: string) => (_field: unknown, _sealed: string, sent: string) => sent === plaintext;
  const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed-old' });

  it('names a secret set, cleared, or sent anew with another value; not one sent again unchanged or kept by its placeholder', () => {
    const dto = aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'new' });
    expect(changedSecrets(dto, stored, { ...stored, bearerToken: 'sealed-new' }, decryptsTo('old'))).toEqual(['bearerToken']);
    expect(changedSecrets(dto, stored, { ...stored, bearerToken: 'sealed-new' }, decryptsTo('new'))).toEqual([]);
    expect(changedSecrets(aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>' }), stored, stored, decryptsTo('never asked'))).toEqual([]);
    expect(
      changedSecrets(
        aWriteDto({ authType: AuthType.AUTH_BASIC, basicToken: 'b' }),
        stored,
        { ...stored, bearerToken: null, basicToken: 'sealed-b' },
        decryptsTo('x'),
      ),
    ).toEqual(['basicToken', 'bearerToken']);
  });
});

describe('sameTags', () => {
  it('holds for the same names in the same order and spelling only', () => {
    const before = snapshot({}, [{ name: 'a' }, { name: 'b' }]);
    expect(
      sameTags(before, [
        { name: 'a', nameKey: 'a', position: 0 },
        { name: 'b', nameKey: 'b', position: 1 },
      ]),
    ).toBe(true);
    expect(
      sameTags(before, [
        { name: 'b', nameKey: 'b', position: 0 },
        { name: 'a', nameKey: 'a', position: 1 },
      ]),
    ).toBe(false);
    expect(
      sameTags(before, [
        { name: 'A', nameKey: 'a', position: 0 },
        { name: 'b', nameKey: 'b', position: 1 },
      ]),
    ).toBe(false);
    expect(sameTags(null, [])).toBe(false);
  });
});

describe('secret headers in history', () => {
  const decryptsTo = (plaintext: string) => (_field: unknown, _sealed: string, sent: string) => sent === plaintext;
  const stored = aStoredConnector({ headers: [{ header: 'X-Api-Key', value: 'sealed-old', secret: true }] });
  const written = (value: string) => ({ ...stored, headers: [{ header: 'x-api-key', value, secret: true }] });
  const sent = (value: string) => aWriteDto({ headers: [{ header: 'x-api-key', value, secret: true }] });

  it('a snapshot shows a secret header as its placeholder', () => {
    expect(snapshot({ headers: [{ header: 'X-Api-Key', value: 'sealed-old', secret: true }] }).headers).toEqual([
      { header: 'X-Api-Key', value: '<SECRET>', secret: true },
    ]);
  });

  it('names the headers when a secret header is sent with another value, by name case-insensitively; not when kept or sent unchanged', () => {
    expect(changedSecrets(sent('new'), stored, written('sealed-new'), decryptsTo('old'))).toEqual(['headers']);
    expect(changedSecrets(sent('old'), stored, written('sealed-new'), decryptsTo('old'))).toEqual([]);
    expect(changedSecrets(sent('<SECRET>'), stored, written('sealed-old'), decryptsTo('never asked'))).toEqual([]);
  });

  it('fieldsChanged names the headers for a changed secret header whose snapshot is the same', () => {
    const same = snapshot({ headers: [{ header: 'X-Api-Key', value: 'sealed-new', secret: true }] });
    const before = snapshot({ headers: [{ header: 'X-Api-Key', value: 'sealed-old', secret: true }] });
    expect(fieldsChanged(before, same, [])).toEqual([]);
    expect(fieldsChanged(before, same, ['headers'])).toEqual(['headers']);
  });
});

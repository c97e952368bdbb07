import { DECORATORS } from '@nestjs/swagger/dist/constants';
import { getMetadataStorage } from 'class-validator';
import {
  BODY_COLUMNS,
  CONNECTOR_FIELDS,
  CREDENTIAL_FIELDS,
  EXPORTED_FIELDS,
  type FieldFlags,
  fieldsWhere,
  RECORDED_FIELDS,
  SECRET_FIELDS,
  SHOWN_COLUMNS,
  SHOWN_FIELDS,
  WRITTEN_COLUMNS,
} from './connector-fields';
import { connectorRecord, connectorSnapshot } from './connector-snapshot';
import { SECRET_PLACEHOLDERS, SECRETS } from './connector-secrets';
import { RestConnectorDto } from './dto/rest-connector.dto';
import { RestConnectorWriteDto } from './dto/rest-connector-write.dto';
import { AuthType, ContentType, RequestType } from './rest-connector.enums';
import { REST_CONNECTOR_ROWS } from './rest-connector.entity';
import { storedConnector } from './stored-connector';

const flagsOf = (field: keyof typeof CONNECTOR_FIELDS): FieldFlags => CONNECTOR_FIELDS[field];
const A_CONNECTOR = {
  uuid: '0192f0a0-0000-7000-8000-000000000001',
  botUuid: '6bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a07',
  name: 'Weather Forecast',
  requestType: RequestType.GET,
  url: 'https://api.example.com/forecast',
  contentType: ContentType.NONE,
  authType: AuthType.AUTH_NONE,
  body: '',
  output: '$.data',
};
const AT = new Date('2026-11-21T09:00:00.000Z');
/** The properties a DTO class documents, in its order (what its OpenAPI schema lists). */
const documented = (dto: new () => unknown): string[] =>
  (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[]).map((key) => key.replace(/^:/, ''));

describe('CONNECTOR_FIELDS', () => {
  it("has the entity's columns, in the entity's order (the committed SQL's column lists keep it), and the tags", () => {
    expect(fieldsWhere('stored')).toEqual(REST_CONNECTOR_ROWS.layout.map(({ property }) => property));
    expect(Object.keys(CONNECTOR_FIELDS).filter((field) => !flagsOf(field as keyof typeof CONNECTOR_FIELDS).stored)).toEqual(['tags']);
  });

  it("shows the record's fields in the record's order: the read DTO's, its flows after the tags", () => {
    expect(documented(RestConnectorDto)).toEqual(SHOWN_FIELDS.flatMap((field) => (field === 'tags' ? ['tags', 'flows'] : [field])));
  });

  it('takes from a write body the fields the write DTO validates, and no other', () => {
    const validated = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(RestConnectorWriteDto, '', true, false)
        .map(({ propertyName }) => propertyName),
    );
    // The read-only fields a GET-then-PUT round trip sends back are accepted and ignored (`@Allow`).
    const ignored = ['uuid', 'flows', 'updatedAt', 'updatedBy', 'user'];
    expect(fieldsWhere('written', 'body')).toEqual([...validated].filter((property) => !ignored.includes(property)));
  });

  it('records every field a write body sets, and shows each (a version keeps what a write changed)', () => {
    expect(RECORDED_FIELDS).toEqual(fieldsWhere('written', 'body'));
    expect(RECORDED_FIELDS.every((field) => (SHOWN_FIELDS as string[]).includes(field))).toBe(true);
  });

  it('gives each secret its rule, and keeps secrets out of exports but among the credentials an import takes', () => {
    expect(Object.keys(SECRETS)).toEqual(SECRET_FIELDS);
    expect(SECRET_FIELDS.filter((field) => (EXPORTED_FIELDS as string[]).includes(field))).toEqual([]);
    expect(SECRET_FIELDS.every((field) => (CREDENTIAL_FIELDS as string[]).includes(field))).toBe(true);
  });

  it('lets a write body leave out only fields that are not required (each unset field is optional in the write DTO)', () => {
    const required = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(RestConnectorWriteDto, '', true, false)
        .filter(({ name, type }) => name === 'isDefined' || type === 'isDefined')
        .map(({ propertyName }) => propertyName),
    );
    expect(fieldsWhere('unset').filter((field) => required.has(field))).toEqual([]);
    expect(fieldsWhere('written', 'body').filter((field) => !('unset' in flagsOf(field)))).toEqual([...required]);
  });

  it('derives the column lists: a full write leaves alone what creation, the trash, the version step and the writers of the read copy set; a get reads the body, its id and last writer', () => {
    const stored = fieldsWhere('stored');
    expect(stored.filter((field) => !(WRITTEN_COLUMNS as string[]).includes(field))).toEqual([
      'uuid',
      'botUuid',
      'createdAt',
      'createdBy',
      'deletedAt',
      'deletedBy',
      'version',
      'tagsJson',
      'tagKeys',
      'flowsJson',
    ]);
    expect(SHOWN_COLUMNS.filter((field) => !(BODY_COLUMNS as string[]).includes(field))).toEqual(['uuid', 'updatedAt', 'updatedBy']);
    expect(BODY_COLUMNS.every((field) => (SHOWN_COLUMNS as string[]).includes(field))).toBe(true);
  });
});

describe(connectorSnapshot.name, () => {
  const secrets = Object.fromEntries(SECRET_FIELDS.map((field) => [field, `sealed-${field}`]));

  it('shows a set secret only as its placeholder, never its stored value', () => {
    const snapshot = connectorSnapshot({ ...storedConnector(A_CONNECTOR, 'alice', AT), ...secrets }, []);

    expect(Object.fromEntries(SECRET_FIELDS.map((field) => [field, snapshot[field]]))).toEqual(SECRET_PLACEHOLDERS);
    expect(JSON.stringify(snapshot)).not.toContain('sealed-');
  });

  it("holds the shown fields in the record's order, times in ISO 8601, the flows after the tags in a record", () => {
    const connector = storedConnector(A_CONNECTOR, 'alice', AT);
    const flows = [{ uuid: '0192f0a0-0000-7000-8000-0000000000f1', name: 'Main' }];

    const record = connectorRecord(connector, [{ name: 'weather' }], flows);

    expect(Object.keys(connectorSnapshot(connector, []))).toEqual(SHOWN_FIELDS);
    expect(Object.keys(record)).toEqual(documented(RestConnectorDto));
    expect(record).toMatchObject({ uuid: A_CONNECTOR.uuid, basicToken: null, headers: [], tags: [{ name: 'weather' }], flows, updatedAt: AT.toISOString() });
  });
});

describe(storedConnector.name, () => {
  it('stores what a create given only the required fields stores: every other body column unset, the name keys, version 1', () => {
    const connector = storedConnector(A_CONNECTOR, 'alice', AT);

    expect(connector).toEqual({
      ...A_CONNECTOR,
      ...Object.fromEntries(fieldsWhere('unset', null).map((field) => [field, null])),
      headers: [],
      nameKey: 'weather forecast',
      activeNameKey: 'weather forecast',
      createdAt: AT,
      createdBy: 'alice',
      updatedAt: AT,
      updatedBy: 'alice',
      updatedByImage: null,
      deletedAt: null,
      deletedBy: null,
      version: 1,
      tagsJson: [],
      tagKeys: '',
      flowsJson: [],
    });
    expect(Object.keys(connector).sort()).toEqual(REST_CONNECTOR_ROWS.layout.map(({ property }) => property).sort());
  });

  it('gives each connector lists of its own', () => {
    expect(storedConnector(A_CONNECTOR, 'alice', AT).headers).not.toBe(storedConnector(A_CONNECTOR, 'alice', AT).headers);
  });
});

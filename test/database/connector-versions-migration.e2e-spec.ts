import { AuthType, recordedSnapshot, REST_CONNECTOR_TAG_ROWS, REST_CONNECTOR_VERSION_ROWS, RestConnector, SHOWN_FIELDS } from '@app/domain';
import { aConnectorRow, beforeMigration, CONNECTOR_ROWS_BEFORE_API_KEY, insertBot, migrationTargets } from './migration-support';

const ORG = '0199bbbb-0000-7000-8000-000000000001';
const ENV = '0199bbbb-0000-7000-8000-000000000002';
const BOT = '0199bbbb-0000-7000-8000-000000000003';
const T0 = new Date('2026-11-20T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A bearer connector stored before the history migration. */
const aConnector = (uuid: string, overrides: Partial<RestConnector>) =>
  aConnectorRow(uuid, BOT, T0, {
    authType: AuthType.AUTH_BEARER,
    bearerToken: 'v1:sealed-not-plaintext',
    updatedAt: at(1000),
    updatedByImage: 'https://img.example.com/ada.png',
    ...overrides,
  });

/**
 * The history migration on a database that already holds connectors: each gets its current state as its first
 * recorded version, numbered as its ETag (CREATED, UPDATED or DELETED), with its tags and secrets as placeholders.
 */
describe.each(migrationTargets('platform_history_migration'))('The history migration (ConnectorVersions) on %s', (_engine, target) => {
  it("records every existing connector's current state as its first version", () =>
    beforeMigration(target, 'ConnectorVersions1795564800000', async (db, dataSource, undone) => {
      await insertBot(db, { org: ORG, env: ENV, bot: BOT });
      // More than one batch of the migration (500), so that its keyset paging is exercised.
      const plenty = Array.from({ length: 1_203 }, (_, i) => aConnector(`0199bbbb-1000-7000-8000-${String(i).padStart(12, '0')}`, {}));
      const created = aConnector('0199bbbb-0000-7000-8000-0000000000c1', {});
      const updated = aConnector('0199bbbb-0000-7000-8000-0000000000c2', { version: 3, updatedBy: 'bob' });
      const deleted = aConnector('0199bbbb-0000-7000-8000-0000000000c3', { version: 4, activeNameKey: null, deletedAt: at(5000), deletedBy: 'carol' });
      const all = [created, updated, deleted, ...plenty];
      // In chunks: SQLite binds at most 32,766 variables per statement.
      for (let i = 0; i < all.length; i += 200) await db.insert(CONNECTOR_ROWS_BEFORE_API_KEY, all.slice(i, i + 200));
      await db.insert(REST_CONNECTOR_TAG_ROWS, [
        { connectorUuid: updated.uuid, nameKey: 'b', name: 'B', position: 0 },
        { connectorUuid: updated.uuid, nameKey: 'a', name: 'a', position: 1 },
      ]);

      expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(undone);

      const rows = (await db.rows(`SELECT ${REST_CONNECTOR_VERSION_ROWS.names} FROM rest_connector_versions ORDER BY connector_uuid`)).map((row) =>
        REST_CONNECTOR_VERSION_ROWS.from(row),
      );
      expect(rows).toHaveLength(3 + plenty.length);
      const of = (uuid: string) => rows.find((row) => row.connectorUuid === uuid);
      expect(of(created.uuid)).toMatchObject({
        version: 1,
        operation: 'CREATED',
        updatedAt: at(1000),
        updatedBy: 'ada',
        updatedByImage: 'https://img.example.com/ada.png',
        changedFields: [],
      });
      expect(of(updated.uuid)).toMatchObject({ version: 3, operation: 'UPDATED', updatedBy: 'bob' });
      // The record as this migration wrote it when it was written (its frozen copy): that day's fields, in their order.
      const asWritten = {
        uuid: updated.uuid,
        name: updated.name,
        description: null,
        requestType: 'GET',
        url: 'https://api.example.com/x',
        headers: [],
        contentType: 'NONE',
        authType: 'AUTH_BEARER',
        grantType: null,
        basicToken: null,
        bearerToken: '<BEARER_TOKEN>',
        clientId: null,
        clientSecret: null,
        oauthUrl: null,
        authUsername: null,
        authPassword: null,
        body: '',
        output: '$.x',
        tags: [{ name: 'B' }, { name: 'a' }],
        updatedAt: '2026-11-20T10:00:01.000Z',
        updatedBy: 'bob',
      };
      const recorded = of(updated.uuid)!.snapshot;
      expect(Object.keys(recorded)).toEqual(Object.keys(asWritten));
      expect(recorded).toEqual(asWritten);
      // Read as today's record: every field added since (the API key's among them) is null, as the connector had none then.
      const addedSince = SHOWN_FIELDS.filter((field) => !(field in asWritten));
      expect(addedSince).toEqual(expect.arrayContaining(['apiKeyName', 'apiKeyIn', 'apiKey']));
      expect(recordedSnapshot(recorded)).toEqual({ ...asWritten, ...Object.fromEntries(addedSince.map((field) => [field, null])) });
      expect(of(deleted.uuid)).toMatchObject({ version: 4, operation: 'DELETED', updatedAt: at(5000), updatedBy: 'carol', updatedByImage: null });
      expect(JSON.stringify(rows)).not.toContain('sealed-not-plaintext');
    }));
});

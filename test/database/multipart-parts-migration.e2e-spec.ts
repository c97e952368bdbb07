import { ContentType, RestConnector } from '@app/domain';
import { aConnectorRow, beforeMigration, CONNECTOR_ROWS_BEFORE_READ_COPIES, insertBot, migrationTargets } from './migration-support';

const ORG = '0199dddd-0000-7000-8000-000000000001';
const ENV = '0199dddd-0000-7000-8000-000000000002';
const BOT = '0199dddd-0000-7000-8000-000000000003';
const T0 = new Date('2026-11-20T10:00:00.000Z');

const aConnector = (uuid: string, overrides: Partial<RestConnector>) => aConnectorRow(uuid, BOT, T0, { version: 3, ...overrides });

/** Stored multipart bodies and what the migration makes of them. */
const BODIES: Array<[stored: string, parts: string]> = [
  ['to=a%40b.c&subject=Hi+there&text={{text}}', '[{"name":"to","value":"a@b.c"},{"name":"subject","value":"Hi there"},{"name":"text","value":"{{text}}"}]'],
  ['flag&eq=a=b&&pct=100%', '[{"name":"flag","value":""},{"name":"eq","value":"a=b"},{"name":"pct","value":"100%"}]'],
  ['', ''],
  ['=orphan', '[{"name":"body","value":"=orphan"}]'],
  ['[{"name":"a","value":"already parts"}]', '[{"name":"a","value":"already parts"}]'],
];

/** The multipart migration on a database holding connectors stored before it: multipart bodies become parts, nothing else changes. */
describe.each(migrationTargets('platform_multipart_migration'))('The multipart migration (MultipartBodyParts) on %s', (_engine, target) => {
  it('writes every MULTIPART_FORM_DATA body as a JSON array of parts, and leaves every other connector as it was', () =>
    beforeMigration(target, 'MultipartBodyParts1796300000000', async (db, dataSource, undone) => {
      await insertBot(db, { org: ORG, env: ENV, bot: BOT });
      const multipart = BODIES.map(([body], i) =>
        aConnector(`0199dddd-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`, { contentType: ContentType.MULTIPART_FORM_DATA, body }),
      );
      const form = aConnector('0199dddd-0000-7000-8000-0000000000f0', { contentType: ContentType.APPLICATION_FORM_URLENCODED, body: 'a=b&c=d' });
      // More than one batch of the migration (500), so that its keyset paging is exercised.
      const plenty = Array.from({ length: 503 }, (_, i) =>
        aConnector(`0199dddd-1000-7000-8000-${String(i).padStart(12, '0')}`, { contentType: ContentType.MULTIPART_FORM_DATA, body: `n=${i}` }),
      );
      const all = [...multipart, form, ...plenty];
      for (let i = 0; i < all.length; i += 200) await db.insert(CONNECTOR_ROWS_BEFORE_READ_COPIES, all.slice(i, i + 200));
      const read = async () =>
        (await db.rows(`SELECT ${CONNECTOR_ROWS_BEFORE_READ_COPIES.names} FROM rest_connectors ORDER BY uuid`)).map((row) =>
          CONNECTOR_ROWS_BEFORE_READ_COPIES.from(row),
        );
      const before = await read();

      expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(undone);

      const after = await read();
      const of = (uuid: string) => after.find((row) => row.uuid === uuid)!;
      expect(multipart.map(({ uuid }) => of(uuid).body)).toEqual(BODIES.map(([, parts]) => parts));
      expect(of(form.uuid).body).toBe('a=b&c=d');
      expect(plenty.map(({ uuid }) => of(uuid).body)).toEqual(plenty.map((_, i) => `[{"name":"n","value":"${i}"}]`));
      // Nothing but the bodies changed: not the version (the ETag), not who or when.
      const withoutBody = (rows: Array<Omit<RestConnector, 'tagsJson' | 'tagKeys' | 'flowsJson'>>) => rows.map(({ body: _body, ...rest }) => rest);
      expect(withoutBody(after)).toEqual(withoutBody(before));
    }));
});

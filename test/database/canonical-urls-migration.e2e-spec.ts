import { AuthType, GrantType, RestConnector } from '@app/domain';
import { aConnectorRow, beforeMigration, CONNECTOR_ROWS_BEFORE_API_KEY, insertBot, migrationTargets } from './migration-support';

const ORG = '0199cccc-0000-7000-8000-000000000001';
const ENV = '0199cccc-0000-7000-8000-000000000002';
const BOT = '0199cccc-0000-7000-8000-000000000003';
const T0 = new Date('2026-11-20T10:00:00.000Z');

const aConnector = (uuid: string, overrides: Partial<RestConnector>) => aConnectorRow(uuid, BOT, T0, { version: 3, ...overrides });

/** Stored spellings and what the migration makes of them. */
const SPELLINGS: Array<[stored: string, canonical: string]> = [
  ['HTTP:/api.example.com/x', 'http://api.example.com/x'],
  ['https:api.example.com', 'https://api.example.com'],
  ['https:\\\\api.example.com\\x', 'https://api.example.com\\x'],
  ['https:///api.example.com/{{path}}?q={{q}}', 'https://api.example.com/{{path}}?q={{q}}'],
  ['HTTPS://API.Example.com/Path/{{Id}}', 'https://API.Example.com/Path/{{Id}}'],
  ['Http://{{host}}/x', 'http://{{host}}/x'],
  ['https://api.example.com/already', 'https://api.example.com/already'],
  ['http://api.example.com/already', 'http://api.example.com/already'],
];

/** The URL migration on a database that holds connectors stored before it: every URL canonical, nothing else touched. */
describe.each(migrationTargets('platform_url_migration'))('The URL migration (CanonicalConnectorUrls) on %s', (_engine, target) => {
  it('stores every url and oauthUrl with a lower-case scheme and exactly two slashes', () =>
    beforeMigration(target, 'CanonicalConnectorUrls1795651200000', async (db, dataSource, undone) => {
      await insertBot(db, { org: ORG, env: ENV, bot: BOT });
      const spelled = SPELLINGS.map(([url], i) => aConnector(`0199cccc-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`, { url }));
      const oauth = aConnector('0199cccc-0000-7000-8000-0000000000f0', {
        authType: AuthType.AUTH_OAUTH2,
        grantType: GrantType.CLIENT_CREDENTIALS,
        clientId: 'c',
        clientSecret: 'v1:sealed',
        url: 'https://api.example.com/x',
        oauthUrl: 'HTTPS:\\\\id.example.com/token',
      });
      // More than one batch of the migration (500) to change, canonical ones between them, so that its keyset paging is exercised.
      const plenty = Array.from({ length: 1_203 }, (_, i) =>
        aConnector(`0199cccc-1000-7000-8000-${String(i).padStart(12, '0')}`, {
          url: i % 2 === 0 ? `HTTPS:/api.example.com/${i}` : `https://api.example.com/${i}`,
        }),
      );
      const all = [...spelled, oauth, ...plenty];
      // In chunks: SQLite binds at most 32,766 variables per statement.
      for (let i = 0; i < all.length; i += 200) await db.insert(CONNECTOR_ROWS_BEFORE_API_KEY, all.slice(i, i + 200));
      const before = await db.rows(`SELECT ${CONNECTOR_ROWS_BEFORE_API_KEY.names} FROM rest_connectors ORDER BY uuid`);

      expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(undone);

      const after = (await db.rows(`SELECT ${CONNECTOR_ROWS_BEFORE_API_KEY.names} FROM rest_connectors ORDER BY uuid`)).map((row) =>
        CONNECTOR_ROWS_BEFORE_API_KEY.from(row),
      );
      const of = (uuid: string) => after.find((row) => row.uuid === uuid)!;
      expect(spelled.map(({ uuid }) => of(uuid).url)).toEqual(SPELLINGS.map(([, canonical]) => canonical));
      expect(of(oauth.uuid)).toMatchObject({ url: 'https://api.example.com/x', oauthUrl: 'https://id.example.com/token', clientSecret: 'v1:sealed' });
      expect(plenty.map(({ uuid }) => of(uuid).url)).toEqual(plenty.map((_, i) => `https://api.example.com/${i}`));
      // Nothing but the URLs changed: not the version (the ETag), not who or when.
      const withoutUrls = (rows: Array<Record<string, unknown>>) => rows.map(({ url: _url, oauthUrl: _oauthUrl, ...rest }) => rest);
      expect(withoutUrls(after)).toEqual(withoutUrls(before.map((row) => CONNECTOR_ROWS_BEFORE_API_KEY.from(row))));
    }));
});

import { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalHttpUrl } from './frozen/1795651200000-canonical-http-url';

/** Connectors looked at per query: a keyset page over the primary key, only rows that need a change. */
const BATCH = 500;

/**
 * Whether `column` is not yet `http://` or `https://` (lower case, compared as bytes on both engines: HEX) followed
 * by something other than a third slash or a backslash. The backslash is bound: MySQL reads one in an SQL string as an escape.
 */
const notCanonical = (column: string) =>
  `NOT ((HEX(SUBSTR(${column}, 1, 7)) = '687474703A2F2F' AND SUBSTR(${column}, 8, 1) NOT IN ('/', ?)) ` +
  `OR (HEX(SUBSTR(${column}, 1, 8)) = '68747470733A2F2F' AND SUBSTR(${column}, 9, 1) NOT IN ('/', ?)))`;

/**
 * Every stored `url` and `oauth_url` in the form writes now store (canonicalHttpUrl): `HTTP:/host`, `https:host`,
 * `https:\\host` become `http://host`, `https://host`, `https://host`. Each means to undici what it meant before, so
 * the version (the ETag) and the recorded history stay as they are; other readers of the URL no longer disagree
 * about where it goes. The SQL picks the few rows to change; the rest of the table is read once by its primary key.
 */
export class CanonicalConnectorUrls1795651200000 implements MigrationInterface {
  name = 'CanonicalConnectorUrls1795651200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    let after = '';
    for (;;) {
      const rows: Array<{ uuid: string; url: string; oauthUrl: string | null }> = await queryRunner.query(
        `SELECT uuid, url, oauth_url AS oauthUrl FROM rest_connectors WHERE uuid > ? AND (${notCanonical('url')} OR (oauth_url IS NOT NULL AND ${notCanonical('oauth_url')})) ORDER BY uuid LIMIT ${BATCH}`,
        [after, '\\', '\\', '\\', '\\'],
      );
      if (rows.length === 0) return;
      for (const { uuid, url, oauthUrl } of rows) {
        const canonical = { url: canonicalHttpUrl(url), oauthUrl: oauthUrl === null ? null : canonicalHttpUrl(oauthUrl) };
        if (canonical.url === url && canonical.oauthUrl === oauthUrl) continue;
        await queryRunner.query('UPDATE rest_connectors SET url = ?, oauth_url = ? WHERE uuid = ?', [canonical.url, canonical.oauthUrl, uuid]);
      }
      after = rows[rows.length - 1].uuid;
    }
  }

  /** Nothing to undo: the old spellings are not kept, and each canonical URL means what its old spelling meant. */
  public async down(): Promise<void> {}
}

import { MigrationInterface, QueryRunner } from 'typeorm';
import { multipartPartsBody } from './frozen/1796300000000-multipart-parts';

/** Connectors looked at per query: a keyset page over the primary key. */
const BATCH = 500;

/**
 * Every MULTIPART_FORM_DATA connector's body as the JSON array of parts it now holds (docs/api-contract.md, "Multipart
 * bodies"): a stored `to=a%40b.c&subject=Hi` becomes `[{"name":"to","value":"a@b.c"},{"name":"subject","value":"Hi"}]`,
 * the fields it was meant to send (frozen/1796300000000-multipart-parts.ts says how). The version (the ETag), who and
 * when stay as they are, as for the canonical URLs: the body says what it said, in the form a test run can send.
 */
export class MultipartBodyParts1796300000000 implements MigrationInterface {
  name = 'MultipartBodyParts1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    let after = '';
    for (;;) {
      const rows: Array<{ uuid: string; body: string }> = await queryRunner.query(
        `SELECT uuid, body FROM rest_connectors WHERE uuid > ? AND content_type = 'MULTIPART_FORM_DATA' ORDER BY uuid LIMIT ${BATCH}`,
        [after],
      );
      if (rows.length === 0) return;
      for (const { uuid, body } of rows) {
        const parts = multipartPartsBody(body);
        if (parts !== null && parts !== body) await queryRunner.query('UPDATE rest_connectors SET body = ? WHERE uuid = ?', [parts, uuid]);
      }
      after = rows[rows.length - 1].uuid;
    }
  }

  /** Nothing to undo: the old text is not kept, and a test run could not send it. */
  public async down(): Promise<void> {}
}

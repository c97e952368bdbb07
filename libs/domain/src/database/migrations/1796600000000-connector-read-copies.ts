import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { flowCopy, LinkedFlow, StoredTag, tagCopy } from './frozen/1796600000000-read-copies';

/** Connectors copied per batch: a keyset page over the primary key. */
const BATCH = 500;

/**
 * The read copy of each connector's tags and flows on its row (docs/decisions.md, "Connector tags and flows: the
 * tables and a read copy on the row"): rest_connectors.tags_json (the tags as a read shows them, in the writer's
 * order), tag_keys (their name keys joined by a line break, byte for byte: what a search matches) and flows_json (the
 * flows of the connector's bot that link to it, by lower-cased name by code point, then uuid). NOT NULL with defaults
 * that say "none", so a row written without them stays valid. Every existing row is filled in batches here, on both
 * engines alike: the flows' order (JavaScript's lower-casing, then code points) is not one SQL can give under every
 * collation, so it is made in code (frozen/1796600000000-read-copies.ts).
 */
export class ConnectorReadCopies1796600000000 implements MigrationInterface {
  name = 'ConnectorReadCopies1796600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const text = mysql ? 'mediumtext' : 'text';
    await queryRunner.addColumns('rest_connectors', [
      new TableColumn({ name: 'tags_json', type: text, default: "'[]'" }),
      new TableColumn({ name: 'tag_keys', type: text, default: "''", ...(mysql && { collation: 'utf8mb4_bin' }) }),
      new TableColumn({ name: 'flows_json', type: text, default: "'[]'" }),
    ]);
    let after = '';
    for (;;) {
      const connectors: Array<{ uuid: string }> = await queryRunner.query(`SELECT uuid FROM rest_connectors WHERE uuid > ? ORDER BY uuid LIMIT ${BATCH}`, [
        after,
      ]);
      if (connectors.length === 0) return;
      const uuids = connectors.map(({ uuid }) => uuid);
      const placeholders = uuids.map(() => '?').join(', ');
      const tags: Array<StoredTag & { connectorUuid: string }> = (
        await queryRunner.query(`SELECT connector_uuid, name, name_key, position FROM rest_connector_tags WHERE connector_uuid IN (${placeholders})`, uuids)
      ).map((row: Record<string, unknown>) => ({
        connectorUuid: String(row.connector_uuid),
        name: String(row.name),
        nameKey: String(row.name_key),
        position: Number(row.position),
      }));
      const flows: Array<LinkedFlow & { connectorUuid: string }> = (
        await queryRunner.query(
          'SELECT fc.connector_uuid AS connector_uuid, f.uuid AS uuid, f.name AS name FROM flow_connectors fc ' +
            'JOIN rest_connectors c ON c.uuid = fc.connector_uuid JOIN flows f ON f.uuid = fc.flow_uuid AND f.bot_uuid = c.bot_uuid ' +
            `WHERE fc.connector_uuid IN (${placeholders})`,
          uuids,
        )
      ).map((row: Record<string, unknown>) => ({ connectorUuid: String(row.connector_uuid), uuid: String(row.uuid), name: String(row.name) }));
      const copies = uuids.flatMap((uuid) => {
        const ofTags = tags.filter((tag) => tag.connectorUuid === uuid);
        const ofFlows = flows.filter((flow) => flow.connectorUuid === uuid);
        if (ofTags.length === 0 && ofFlows.length === 0) return [];
        const { tagsJson, tagKeys } = tagCopy(ofTags);
        return [{ uuid, tagsJson, tagKeys, flowsJson: flowCopy(ofFlows) }];
      });
      if (copies.length > 0) await writeCopies(queryRunner, copies);
      after = uuids[uuids.length - 1];
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('rest_connectors', ['flows_json', 'tag_keys', 'tags_json']);
  }
}

/**
 * One UPDATE for a batch (a CASE per column, the same text on both engines): a statement per row made the migration
 * of a million connectors take about 17 minutes on MariaDB.
 */
async function writeCopies(queryRunner: QueryRunner, copies: Array<{ uuid: string; tagsJson: string; tagKeys: string; flowsJson: string }>): Promise<void> {
  const cases = (pick: (copy: (typeof copies)[number]) => string) => ({
    text: `CASE uuid ${copies.map(() => 'WHEN ? THEN ?').join(' ')} END`,
    values: copies.flatMap((copy) => [copy.uuid, pick(copy)]),
  });
  const [tagsJson, tagKeys, flowsJson] = [cases((c) => c.tagsJson), cases((c) => c.tagKeys), cases((c) => c.flowsJson)];
  await queryRunner.query(
    `UPDATE rest_connectors SET tags_json = ${tagsJson.text}, tag_keys = ${tagKeys.text}, flows_json = ${flowsJson.text} ` +
      `WHERE uuid IN (${copies.map(() => '?').join(', ')})`,
    [...tagsJson.values, ...tagKeys.values, ...flowsJson.values, ...copies.map((copy) => copy.uuid)],
  );
}

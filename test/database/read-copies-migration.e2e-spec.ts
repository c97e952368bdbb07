import { BOT_ROWS, FLOW_CONNECTOR_ROWS, FLOW_ROWS, flowsInOrder, REST_CONNECTOR_TAG_ROWS, tagReadCopy } from '@app/domain';
import { aConnectorRow, beforeMigration, CONNECTOR_ROWS_BEFORE_READ_COPIES, insertBot, migrationTargets } from './migration-support';

const ORG = '0199eeee-0000-7000-8000-000000000001';
const ENV = '0199eeee-0000-7000-8000-000000000002';
const BOT = '0199eeee-0000-7000-8000-000000000003';
const OTHER_BOT = '0199eeee-0000-7000-8000-000000000004';
const T0 = new Date('2026-11-20T10:00:00.000Z');

const connector = (i: number) => aConnectorRow(`0199eeee-1000-7000-8000-${String(i).padStart(12, '0')}`, BOT, T0, {});
const flow = (i: number) => `0199eeee-2000-7000-8000-${String(i).padStart(12, '0')}`;

/**
 * The read copy's migration on a database holding connectors, tags and flows stored before it: every row gets the copy
 * the app writes (tagReadCopy, flowsInOrder of the flows of its own bot), a row without tags or flows the defaults.
 */
describe.each(migrationTargets('platform_read_copies_migration'))('The read copy migration (ConnectorReadCopies) on %s', (_engine, target) => {
  it("fills every connector's copy of its tags and flows from the normalized rows", () =>
    beforeMigration(target, 'ConnectorReadCopies1796600000000', async (db, dataSource, undone) => {
      await insertBot(db, { org: ORG, env: ENV, bot: BOT });
      await db.insert(BOT_ROWS, [{ uuid: OTHER_BOT, environmentUuid: ENV, name: 'Other', image: null }]);
      // More than one batch of the migration (500), so that its keyset paging is exercised.
      const connectors = Array.from({ length: 1_003 }, (_, i) => connector(i));
      for (let i = 0; i < connectors.length; i += 200) await db.insert(CONNECTOR_ROWS_BEFORE_READ_COPIES, connectors.slice(i, i + 200));
      const tagged = [connectors[0], connectors[501], connectors[1_002]];
      const tags = tagged.flatMap(({ uuid }, c) =>
        ['Zeta', 'ärger', 'Alpha']
          .slice(c)
          .map((name, i) => ({ connectorUuid: uuid, name: `${name} ${c}`, nameKey: `${name} ${c}`.toLowerCase(), position: 2 - i })),
      );
      await db.insert(REST_CONNECTOR_TAG_ROWS, tags);
      // Names whose order is by lower-cased code point (`É` after `z`, `b` before `C`), a flow of another bot left out.
      const flows = [
        { uuid: flow(1), botUuid: BOT, name: 'Éclair' },
        { uuid: flow(2), botUuid: BOT, name: 'zebra' },
        { uuid: flow(3), botUuid: BOT, name: 'Cart' },
        { uuid: flow(4), botUuid: BOT, name: 'b' },
        { uuid: flow(5), botUuid: OTHER_BOT, name: 'another bot' },
        { uuid: flow(6), botUuid: BOT, name: 'cart' },
      ];
      await db.insert(FLOW_ROWS, flows);
      const linked = [connectors[0], connectors[700]];
      await db.insert(
        FLOW_CONNECTOR_ROWS,
        linked.flatMap(({ uuid }) => flows.map((f) => ({ flowUuid: f.uuid, connectorUuid: uuid }))),
      );

      expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(undone);

      const rows = await db.rows<{ uuid: string; tags_json: string; tag_keys: string; flows_json: string }>(
        'SELECT uuid, tags_json, tag_keys, flows_json FROM rest_connectors ORDER BY uuid',
      );
      expect(rows).toHaveLength(connectors.length);
      const ownFlows = flowsInOrder(flows.filter((f) => f.botUuid === BOT).map(({ uuid, name }) => ({ uuid, name })));
      expect(ownFlows.map(({ name }) => name)).toEqual(['b', 'Cart', 'cart', 'zebra', 'Éclair']);
      for (const row of rows) {
        const { tagsJson, tagKeys } = tagReadCopy(tags.filter((tag) => tag.connectorUuid === row.uuid));
        const flowsJson = linked.some(({ uuid }) => uuid === row.uuid) ? ownFlows : [];
        expect({ uuid: row.uuid, tagsJson: JSON.parse(row.tags_json), tagKeys: row.tag_keys, flowsJson: JSON.parse(row.flows_json) }).toEqual({
          uuid: row.uuid,
          tagsJson,
          tagKeys,
          flowsJson,
        });
      }
      const first = rows.find(({ uuid }) => uuid === connectors[0].uuid)!;
      expect(JSON.parse(first.tags_json)).toEqual([{ name: 'Alpha 0' }, { name: 'ärger 0' }, { name: 'Zeta 0' }]);
      expect(first.tag_keys).toBe('alpha 0\närger 0\nzeta 0');
    }));
});

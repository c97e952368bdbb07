import { flowsInOrder, push, tagsInOrder } from './connector-relations.repository';
import type { RestConnectorTag } from './rest-connector-tag.entity';
import type { FlowRef, RestConnector } from './rest-connector.entity';

/**
 * The read copy of a connector's tags and flows on its row (rest_connectors' tags_json, tag_keys, flows_json;
 * docs/decisions.md, "Connector tags and flows: the tables and a read copy on the row"). rest_connector_tags and
 * flow_connectors + flows are the source of truth; every write of them sets the copy in its own transaction:
 *
 * - the tags, where they are written (RestConnectorRepository.insert and .update: the INSERT or UPDATE of the row
 *   carries tagReadCopy of the tags it writes);
 * - the flows, where flow_connectors or flows are written (the flow import, libs/seed-data/src/import/import-writer.ts:
 *   RestConnectorRepository.refreshFlows of every connector the flows named before or name now, on the rows as
 *   committed), and after a seed that inserts connectors the flows already named (the demo seed);
 * - a new connector's row starts with the flows its caller gives (none for a new uuid: no flow can name it yet).
 *
 * A delete, a restore from the trash and a write of the variables or secrets change neither, and leave the copy.
 */
export type ReadCopy = Pick<RestConnector, 'tagsJson' | 'tagKeys' | 'flowsJson'>;
export type TagReadCopy = Pick<ReadCopy, 'tagsJson' | 'tagKeys'>;

/** Joins the tags' name keys in tag_keys: a search term is trimmed, and a line break is never inside one. */
export const TAG_KEY_SEPARATOR = '\n';

/** The copy of `tags` (in any order: by position here), as the rows rest_connector_tags gets hold them. */
export function tagReadCopy(tags: ReadonlyArray<Pick<RestConnectorTag, 'name' | 'nameKey' | 'position'>>): TagReadCopy {
  const placed = [...tags].sort((a, b) => a.position - b.position);
  return {
    tagsJson: tagsInOrder(placed.map(({ name, position }) => ({ name, position }))),
    tagKeys: placed.map(({ nameKey }) => nameKey).join(TAG_KEY_SEPARATOR),
  };
}

/** The flows of each connector as flows_json holds them (flowsInOrder), from rows of flow_connectors + flows of the connector's bot. */
export function flowsReadCopies(connectorUuids: readonly string[], rows: ReadonlyArray<FlowRef & { connectorUuid: string }>): Map<string, FlowRef[]> {
  const flows = new Map(connectorUuids.map((uuid): [string, FlowRef[]] => [uuid, []]));
  for (const { connectorUuid, uuid, name } of rows) push(flows, connectorUuid, { uuid, name });
  for (const [uuid, of] of flows) flows.set(uuid, flowsInOrder(of));
  return flows;
}

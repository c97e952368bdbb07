import {
  BOT_ROWS,
  CONNECTOR_CONTENT_ROWS,
  ENVIRONMENT_ROWS,
  FLOW_CONNECTOR_ROWS,
  FLOW_ROWS,
  ORGANIZATION_ROWS,
  RestConnectorRepository,
  Transaction,
} from '@app/domain';
import { chunks } from './chunks';
import { ImportBot, ImportEnvironment, ImportFile, ImportFlow } from './import-file';

const jsonSize = (row: object) => JSON.stringify(row).length;

/**
 * Upserts a validated file by uuid, parents before children. Absent optional fields are written as
 * their defaults, so an item of the file always describes its row whole and a re-import is a no-op.
 * The connectors' read copy of their flows follows the flows in the same transaction (writeFlows).
 */
export async function writeImport(tx: Transaction, file: ImportFile, connectors: RestConnectorRepository): Promise<void> {
  for (const batch of chunks(file.organizations ?? [])) {
    tx.defer.upsert(ORGANIZATION_ROWS, batch, ['uuid']);
  }
  for (const batch of chunks((file.environments ?? []).map(environmentRow), jsonSize)) {
    tx.defer.upsert(ENVIRONMENT_ROWS, batch, ['uuid']);
  }
  for (const batch of chunks((file.bots ?? []).map(botRow))) {
    tx.defer.upsert(BOT_ROWS, batch, ['uuid']);
  }
  for (const batch of chunks(file.flows ?? [])) {
    await writeFlows(tx, batch, connectors);
  }
  const content = Object.entries(file.connectorContent ?? {}).map(([connectorUuid, entries]) => ({
    connectorUuid,
    content: entries,
  }));
  for (const batch of chunks(content, jsonSize)) {
    tx.defer.upsert(CONNECTOR_CONTENT_ROWS, batch, ['connectorUuid']);
  }
}

/**
 * A flow's connectors are replaced, not merged: the file says which connectors the flow uses now. Every connector the
 * flows linked to before or link to now gets its copy of its flows again (RestConnectorRepository.refreshFlows): a flow
 * renamed, moved to another bot, added or dropped. Their rows are locked first (lockForFlows), so a concurrent import
 * that touches one of them waits and then reads these flows.
 */
async function writeFlows(tx: Transaction, flows: ImportFlow[], connectors: RestConnectorRepository): Promise<void> {
  const before = await connectors.linkedToFlows(
    tx,
    flows.map((flow) => flow.uuid),
  );
  const named = [...new Set([...before, ...flows.flatMap((flow) => flow.connectors ?? [])])];
  await connectors.lockForFlows(tx, named);
  tx.defer.upsert(
    FLOW_ROWS,
    flows.map(({ uuid, botUuid, name }) => ({ uuid, botUuid, name })),
    ['uuid'],
  );
  await tx.run(
    `DELETE FROM flow_connectors WHERE flow_uuid IN (${flows.map(() => '?').join(', ')})`,
    flows.map((flow) => flow.uuid),
  );
  const links = flows.flatMap((flow) => [...new Set(flow.connectors ?? [])].map((connectorUuid) => ({ flowUuid: flow.uuid, connectorUuid })));
  for (const batch of chunks(links)) tx.defer.insert(FLOW_CONNECTOR_ROWS, batch);
  await connectors.refreshFlows(tx, named);
}

function environmentRow(environment: ImportEnvironment) {
  return {
    uuid: environment.uuid,
    organizationUuid: environment.organizationUuid,
    name: environment.name,
    removed: environment.removed ?? false,
    instanceUuid: environment.instanceUuid ?? null,
    instanceName: environment.instanceName ?? null,
    channelInstanceUuid: environment.channelInstanceUuid ?? null,
    channelInstanceName: environment.channelInstanceName ?? null,
    connectorInstanceUuid: environment.connectorInstanceUuid ?? null,
    connectorInstanceName: environment.connectorInstanceName ?? null,
    dns: environment.dns ?? null,
    apiURL: environment.apiURL ?? null,
    channelApiUrl: environment.channelApiUrl ?? null,
    connectorApiUrl: environment.connectorApiUrl ?? null,
    applications: environment.applications ?? [],
    permissions: environment.permissions ?? [],
  };
}

function botRow(bot: ImportBot) {
  return { uuid: bot.uuid, environmentUuid: bot.environmentUuid, name: bot.name, image: bot.image ?? null };
}

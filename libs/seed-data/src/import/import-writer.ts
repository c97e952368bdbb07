import { EntityManager, In } from 'typeorm';
import { Bot } from '@app/domain';
import { Environment } from '@app/domain';
import { FlowConnector } from '@app/domain';
import { Flow } from '@app/domain';
import { Organization } from '@app/domain';
import { ConnectorContent } from '@app/domain';
import { chunks } from './chunks';
import { ImportBot, ImportEnvironment, ImportFile, ImportFlow } from './import-file';

const jsonSize = (row: object) => JSON.stringify(row).length;

/**
 * Upserts a validated file by uuid, parents before children. Absent optional fields are written as
 * their defaults, so an item of the file always describes its row whole and a re-import is a no-op.
 */
export async function writeImport(manager: EntityManager, file: ImportFile): Promise<void> {
  for (const batch of chunks(file.organizations ?? [])) {
    await manager.upsert(Organization, batch, ['uuid']);
  }
  for (const batch of chunks((file.environments ?? []).map(environmentRow), jsonSize)) {
    await manager.upsert(Environment, batch, ['uuid']);
  }
  for (const batch of chunks((file.bots ?? []).map(botRow))) {
    await manager.upsert(Bot, batch, ['uuid']);
  }
  for (const batch of chunks(file.flows ?? [])) {
    await writeFlows(manager, batch);
  }
  const content = Object.entries(file.connectorContent ?? {}).map(([connectorUuid, entries]) => ({
    connectorUuid,
    content: entries,
  }));
  for (const batch of chunks(content, jsonSize)) {
    await manager.upsert(ConnectorContent, batch, ['connectorUuid']);
  }
}

/** A flow's connectors are replaced, not merged: the file says which connectors the flow uses now. */
async function writeFlows(manager: EntityManager, flows: ImportFlow[]): Promise<void> {
  await manager.upsert(
    Flow,
    flows.map(({ uuid, botUuid, name }) => ({ uuid, botUuid, name })),
    ['uuid'],
  );
  await manager.delete(FlowConnector, { flowUuid: In(flows.map((flow) => flow.uuid)) });
  const links = flows.flatMap((flow) =>
    [...new Set(flow.connectors ?? [])].map((connectorUuid) => ({ flowUuid: flow.uuid, connectorUuid })),
  );
  for (const batch of chunks(links)) await manager.insert(FlowConnector, batch);
}

function environmentRow(environment: ImportEnvironment): Omit<Environment, 'organization'> {
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

function botRow(bot: ImportBot): Omit<Bot, 'environment'> {
  return { uuid: bot.uuid, environmentUuid: bot.environmentUuid, name: bot.name, image: bot.image ?? null };
}

import { Bot, ConnectorContent, Environment, Flow, FlowConnector, Organization } from '@app/domain';
import { ImportFile } from '@app/seed-data';
import { DataSource, FindOptionsWhere, In } from 'typeorm';

/** The rows an import of `file` touched, read back as plain objects, in the file's order. */
export async function storedRows(dataSource: DataSource, file: ImportFile) {
  const uuids = (items: Array<{ uuid: string }> = []) => items.map((item) => item.uuid.toLowerCase());
  const read = async <E extends { uuid: string }>(entity: new () => E, wanted: string[]) => {
    const rows = await dataSource.getRepository(entity).findBy({ uuid: In(wanted) } as FindOptionsWhere<E>);
    return wanted.map((uuid) => rows.find((row) => row.uuid === uuid)).map((row) => row && { ...row });
  };
  const flowUuids = uuids(file.flows);
  const links = await dataSource.getRepository(FlowConnector).findBy({ flowUuid: In(flowUuids) });
  const connectorUuids = Object.keys(file.connectorContent ?? {}).map((uuid) => uuid.toLowerCase());
  const content = await dataSource.getRepository(ConnectorContent).findBy({ connectorUuid: In(connectorUuids) });
  return {
    organizations: await read(Organization, uuids(file.organizations)),
    environments: await read(Environment, uuids(file.environments)),
    bots: await read(Bot, uuids(file.bots)),
    flows: await read(Flow, flowUuids),
    flowConnectors: Object.fromEntries(
      flowUuids.map((uuid) => [
        uuid,
        links
          .filter((link) => link.flowUuid === uuid)
          .map((link) => link.connectorUuid)
          .sort(),
      ]),
    ),
    connectorContent: Object.fromEntries(content.map((row) => [row.connectorUuid, row.content])),
  };
}

/** What `storedRows` returns after a successful import of a file whose uuids are all lower-case. */
export function expectedRows(file: ImportFile) {
  return {
    organizations: file.organizations ?? [],
    environments: (file.environments ?? []).map((environment) => ({
      removed: false,
      instanceUuid: null,
      instanceName: null,
      channelInstanceUuid: null,
      channelInstanceName: null,
      connectorInstanceUuid: null,
      connectorInstanceName: null,
      dns: null,
      apiURL: null,
      channelApiUrl: null,
      connectorApiUrl: null,
      applications: [],
      permissions: [],
      ...environment,
    })),
    bots: (file.bots ?? []).map((bot) => ({ image: null, ...bot })),
    flows: (file.flows ?? []).map(({ uuid, botUuid, name }) => ({ uuid, botUuid, name })),
    flowConnectors: Object.fromEntries((file.flows ?? []).map((flow) => [flow.uuid, [...new Set(flow.connectors ?? [])].sort()])),
    connectorContent: file.connectorContent ?? {},
  };
}

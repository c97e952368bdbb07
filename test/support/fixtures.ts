import { ConnectorContentEntry } from '@app/domain';
import { ImportBot, ImportEnvironment, ImportFile, ImportFlow, ImportOrganization, Importer } from '@app/seed-data';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

const suffix = () => randomUUID().slice(0, 8);

export function anOrganization(overrides: Partial<ImportOrganization> = {}): ImportOrganization {
  return { uuid: randomUUID(), name: `Organization ${suffix()}`, ...overrides };
}

/** An environment with every field of the seed set. */
export function anEnvironment(organizationUuid: string, overrides: Partial<ImportEnvironment> = {}): ImportEnvironment {
  return {
    uuid: randomUUID(),
    organizationUuid,
    name: `Environment ${suffix()}`,
    removed: false,
    instanceUuid: randomUUID(),
    instanceName: 'instance-a',
    channelInstanceUuid: randomUUID(),
    channelInstanceName: 'channels-a',
    connectorInstanceUuid: randomUUID(),
    connectorInstanceName: 'connectors-a',
    dns: 'env-a.bots.example.com',
    apiURL: 'https://env-a.bots.example.com/api',
    channelApiUrl: 'https://env-a.bots.example.com/channels',
    connectorApiUrl: 'https://env-a.bots.example.com/connectors',
    applications: [{ name: 'gateway', version: '1.2.3', properties: { region: 'eu', 'weird key.with dots': 'v', '': 'empty key' } }],
    permissions: ['bots:read', 'connectors:write'],
    ...overrides,
  };
}

export function aBot(environmentUuid: string, overrides: Partial<ImportBot> = {}): ImportBot {
  return {
    uuid: randomUUID(),
    environmentUuid,
    name: `Bot ${suffix()}`,
    image: 'https://cdn.example.com/bot.png',
    ...overrides,
  };
}

export function aFlow(botUuid: string, overrides: Partial<ImportFlow> = {}): Required<ImportFlow> {
  return { uuid: randomUUID(), botUuid, name: `Flow ${suffix()}`, connectors: [randomUUID(), randomUUID()], ...overrides };
}

export function aContentEntry(overrides: Partial<ConnectorContentEntry> = {}): ConnectorContentEntry {
  return {
    id: suffix(),
    option: 'Yes',
    expressionCode: 'answer == "yes"',
    connectedTo: suffix(),
    buttonText: 'Open',
    buttonType: 'LINK',
    urlRedirect: true,
    buttonUrl: 'https://example.com/next',
    cockpitUUID: randomUUID(),
    ...overrides,
  };
}

/** An import file of one organization with an environment, a bot, a flow and its connectors' content. */
export function aTenantFile() {
  const organization = anOrganization();
  const environment = anEnvironment(organization.uuid);
  const bot = aBot(environment.uuid);
  const flow = aFlow(bot.uuid);
  const [first, second] = flow.connectors;
  const file = {
    organizations: [organization],
    environments: [environment],
    bots: [bot],
    flows: [flow],
    connectorContent: { [first]: [aContentEntry(), aContentEntry({ urlRedirect: false })], [second]: [] },
  } satisfies ImportFile;
  return { file, organization, environment, bot, flow };
}

export interface Tenant {
  organization: ImportOrganization;
  environment: ImportEnvironment;
  bot: ImportBot;
}

/** An organization with one environment and one bot of its own, loaded through the real import. */
export async function seedTenant(dataSource: DataSource): Promise<Tenant> {
  const organization = anOrganization();
  const environment = anEnvironment(organization.uuid);
  const bot = aBot(environment.uuid);
  await importData(dataSource, { organizations: [organization], environments: [environment], bots: [bot] });
  return { organization, environment, bot };
}

export function importData(dataSource: DataSource, file: ImportFile) {
  return new Importer(dataSource).import(file);
}

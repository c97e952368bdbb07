import { getMetadataArgsStorage } from 'typeorm';
import { Bot, ConnectorContentEntry, Environment, EnvironmentApplication, Flow, isUuid, Organization } from '@app/domain';
import { ImportBot, ImportEnvironment, ImportFile, ImportFlow, ImportOrganization } from './import-file';
import { arrayOf, boolean, childPath, Field, INVALID, isRecord, jsonDocument, name, objectOf, optional, recordOf, reject, text, uuid } from './json-fields';

/** Lengths are read from the entities' own columns, so a value the import accepts always fits. */
function columnLength<E>(entity: new () => E, property: keyof E & string): number {
  const column = getMetadataArgsStorage().columns.find((c) => c.target === entity && c.propertyName === property);
  const length = Number(column?.options.length);
  if (!Number.isInteger(length)) throw new Error(`${entity.name}.${property} is not a column with a length`);
  return length;
}

const environmentText = (property: keyof Environment & string) => optional(text(columnLength(Environment, property)));

const organization = objectOf<ImportOrganization>({ uuid, name: name(columnLength(Organization, 'name')) });

const application = objectOf<EnvironmentApplication>({
  name: text(),
  version: text(),
  properties: recordOf(text()),
});

const environment = objectOf<ImportEnvironment>({
  uuid,
  organizationUuid: uuid,
  name: name(columnLength(Environment, 'name')),
  removed: optional(boolean),
  instanceUuid: optional(uuid),
  instanceName: environmentText('instanceName'),
  channelInstanceUuid: optional(uuid),
  channelInstanceName: environmentText('channelInstanceName'),
  connectorInstanceUuid: optional(uuid),
  connectorInstanceName: environmentText('connectorInstanceName'),
  dns: environmentText('dns'),
  apiURL: environmentText('apiURL'),
  channelApiUrl: environmentText('channelApiUrl'),
  connectorApiUrl: environmentText('connectorApiUrl'),
  applications: optional(jsonDocument(arrayOf(application))),
  permissions: optional(jsonDocument(arrayOf(text()))),
});

const bot = objectOf<ImportBot>({
  uuid,
  environmentUuid: uuid,
  name: name(columnLength(Bot, 'name')),
  image: optional(text(columnLength(Bot, 'image'))),
});

const flow = objectOf<ImportFlow>({
  uuid,
  botUuid: uuid,
  name: name(columnLength(Flow, 'name')),
  connectors: optional(arrayOf(uuid)),
});

const contentEntry = objectOf<ConnectorContentEntry>({
  id: optional(text()),
  option: optional(text()),
  expressionCode: optional(text()),
  connectedTo: optional(text()),
  buttonText: optional(text()),
  buttonType: optional(text()),
  urlRedirect: optional(boolean),
  buttonUrl: optional(text()),
  cockpitUUID: optional(text()),
});

const contentEntries = jsonDocument(arrayOf(contentEntry));

/** Keys are connector uuids, lower-cased; two spellings of one uuid are a duplicate. */
const connectorContent: Field<Record<string, ConnectorContentEntry[]>> = (value, path, reasons) => {
  if (!isRecord(value)) return reject(reasons, path, 'must be an object');
  const before = reasons.length;
  const firstKey = new Map<string, string>();
  const content: Array<[string, ConnectorContentEntry[]]> = [];
  for (const [key, entries] of Object.entries(value)) {
    const keyPath = childPath(path, key);
    const connectorUuid = key.toLowerCase();
    const earlier = firstKey.get(connectorUuid);
    if (!isUuid(key)) reject(reasons, keyPath, 'key must be a connector UUID');
    else if (earlier !== undefined) reject(reasons, keyPath, `duplicate of ${childPath(path, earlier)}`);
    else firstKey.set(connectorUuid, key);
    const read = contentEntries(entries, keyPath, reasons);
    if (read !== INVALID) content.push([connectorUuid, read]);
  }
  return reasons.length === before ? Object.fromEntries(content) : INVALID;
};

/** The whole file; its unknown top-level keys are named in the reason itself, `$: unknown key "robots"`. */
export const importFile = objectOf<ImportFile>(
  {
    organizations: optional(arrayOf(organization)),
    environments: optional(arrayOf(environment)),
    bots: optional(arrayOf(bot)),
    flows: optional(arrayOf(flow)),
    connectorContent: optional(connectorContent),
  },
  (reasons, path, key) => reject(reasons, path, `unknown key ${JSON.stringify(key)}`),
);

import { ConnectorContentEntry, EnvironmentApplication } from '@app/domain';

/** The JSON file of `npm run import` (docs/api-contract.md, "Data that this platform reads but does not write"). */
export interface ImportFile {
  organizations?: ImportOrganization[];
  environments?: ImportEnvironment[];
  bots?: ImportBot[];
  flows?: ImportFlow[];
  /** Keyed by connector uuid; the connector need not exist yet. */
  connectorContent?: Record<string, ConnectorContentEntry[]>;
}

export interface ImportOrganization {
  uuid: string;
  name: string;
}

export interface ImportEnvironment {
  uuid: string;
  organizationUuid: string;
  name: string;
  removed?: boolean;
  instanceUuid?: string;
  instanceName?: string;
  channelInstanceUuid?: string;
  channelInstanceName?: string;
  connectorInstanceUuid?: string;
  connectorInstanceName?: string;
  dns?: string;
  apiURL?: string;
  channelApiUrl?: string;
  connectorApiUrl?: string;
  applications?: EnvironmentApplication[];
  permissions?: string[];
}

export interface ImportBot {
  uuid: string;
  environmentUuid: string;
  name: string;
  image?: string;
}

export interface ImportFlow {
  uuid: string;
  botUuid: string;
  name: string;
  /** Uuids of the rest connectors the flow uses; they need not exist yet. */
  connectors?: string[];
}

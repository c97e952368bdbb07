import { entityRows } from '../database/table-rows';
import { Entity } from 'typeorm';
import { LargeJsonColumn, UuidPrimaryColumn } from '../database/columns';

/** One entry of a connector's `content`, as the flow editor stores it. Meaning not given by the seed. */
export interface ConnectorContentEntry {
  id?: string;
  option?: string;
  expressionCode?: string;
  connectedTo?: string;
  buttonText?: string;
  buttonType?: string;
  urlRedirect?: boolean;
  buttonUrl?: string;
  cockpitUUID?: string;
}

/**
 * The `content` of a connector in the list operation. It belongs to the flow editor and is loaded by
 * the import, keyed by connector uuid, so it carries no foreign key (it may arrive before the connector).
 */
@Entity('connector_content')
export class ConnectorContent {
  @UuidPrimaryColumn()
  connectorUuid: string;

  @LargeJsonColumn()
  content: ConnectorContentEntry[];
}

/** The rows of connector_content, read from the decorators above (see TableRows). */
export const CONNECTOR_CONTENT_ROWS = entityRows(ConnectorContent);

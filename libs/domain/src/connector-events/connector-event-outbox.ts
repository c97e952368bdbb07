import { Injectable } from '@nestjs/common';
import { ErrorsLater, Transaction } from '../database/database';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { newUuid } from '../database/uuid-v7';
import type { VersionRow } from '../rest-connectors/connector-history.repository';
import { BotPath } from '../scope/scope-params.dto';
import { EnvironmentPath } from '../scope/scope-params.dto';
import { CONNECTOR_EVENT_ROWS, EventKind, NO_BOT } from './connector-event.entity';

/** Which version of which connector a change event announces, and when it was made. */
export type RecordedChange = Pick<VersionRow, 'connectorUuid' | 'version' | 'updatedAt'>;

const APPEND_ROWS = CONNECTOR_EVENT_ROWS.pick('eventUuid', 'organizationUuid', 'environmentUuid', 'botUuid', 'connectorUuid', 'version', 'createdAt');
const APPEND_KIND_ROWS = CONNECTOR_EVENT_ROWS.pick(
  'eventUuid',
  'kind',
  'organizationUuid',
  'environmentUuid',
  'botUuid',
  'connectorUuid',
  'version',
  'createdAt',
);

/**
 * The write side of the outbox (connector_events): each unit of work that records a version appends its change
 * event beside it, in the same transaction, so an event exists if and only if its version committed. The relay
 * (ConnectorEventRepository) numbers, publishes and purges what is appended here.
 */
@Injectable()
export class ConnectorEventOutbox {
  /** The change event of `change`, a version of a connector of `path`'s bot just recorded in `tx`: deferred, its error the transaction's (ErrorsLater). */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.BOT_PATH, { connectorUuid: DummyValue.UUID, version: 2, updatedAt: DummyValue.DATE }] })
  append(tx: Transaction, path: BotPath, change: RecordedChange): ErrorsLater {
    return tx.defer.insert(APPEND_ROWS, [
      {
        eventUuid: newUuid(change.updatedAt.getTime()),
        organizationUuid: path.orgUUID,
        environmentUuid: path.envUUID,
        botUuid: path.botUUID,
        connectorUuid: change.connectorUuid,
        version: change.version,
        createdAt: change.updatedAt,
      },
    ]);
  }

  /**
   * The change event of version `version` of the connector variables of `path`'s environment, just recorded in `tx`
   * (connector_variable_set_versions): an outbox row of kind `variables`, no bot (NO_BOT), the environment's uuid where a
   * connector's would be (the relay keeps one set's events in order, as one connector's). Deferred, as `append`.
   */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH, 2, DummyValue.DATE] })
  appendVariables(tx: Transaction, path: EnvironmentPath, version: number, updatedAt: Date): ErrorsLater {
    return tx.defer.insert(APPEND_KIND_ROWS, [
      {
        eventUuid: newUuid(updatedAt.getTime()),
        kind: EventKind.VARIABLES,
        organizationUuid: path.orgUUID,
        environmentUuid: path.envUUID,
        botUuid: NO_BOT,
        connectorUuid: path.envUUID,
        version,
        createdAt: updatedAt,
      },
    ]);
  }
}

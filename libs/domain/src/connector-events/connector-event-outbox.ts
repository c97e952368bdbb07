import { Injectable } from '@nestjs/common';
import { ErrorsLater, Transaction } from '../database/database';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { newUuid } from '../database/uuid-v7';
import type { VersionRow } from '../rest-connectors/connector-history.repository';
import { BotPath } from '../scope/scope-params.dto';
import { CONNECTOR_EVENT_ROWS } from './connector-event.entity';

/** Which version of which connector a change event announces, and when it was made. */
export type RecordedChange = Pick<VersionRow, 'connectorUuid' | 'version' | 'updatedAt'>;

const APPEND_ROWS = CONNECTOR_EVENT_ROWS.pick('eventUuid', 'organizationUuid', 'environmentUuid', 'botUuid', 'connectorUuid', 'version', 'createdAt');

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
}

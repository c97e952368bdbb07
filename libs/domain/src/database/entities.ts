import { Bot } from '../bots/bot.entity';
import { ConnectorEventRelayState } from '../connector-events/connector-event-relay.entity';
import { ConnectorEvent } from '../connector-events/connector-event.entity';
import { Environment } from '../environments/environment.entity';
import { FlowConnector } from '../flows/flow-connector.entity';
import { Flow } from '../flows/flow.entity';
import { IdempotencyKey } from '../idempotency/idempotency-key.entity';
import { Organization } from '../organizations/organization.entity';
import { ConnectorContent } from '../rest-connectors/connector-content.entity';
import { RestConnectorTag } from '../rest-connectors/rest-connector-tag.entity';
import { RestConnectorVersion } from '../rest-connectors/rest-connector-version.entity';
import { RestConnector } from '../rest-connectors/rest-connector.entity';
import { ConnectorTestRun } from '../rest-connectors/test-runs/connector-test-run.entity';
import { ConnectorVariable, ConnectorVariableSet, ConnectorVariableSetVersion } from '../connector-variables/connector-variable.entity';
import { ConnectorPromotion } from '../promotions/connector-promotion.entity';

/** Listed, not globbed: the apps are bundled by webpack. */
export const ENTITIES = [
  Organization,
  Environment,
  Bot,
  Flow,
  FlowConnector,
  RestConnector,
  RestConnectorTag,
  RestConnectorVersion,
  ConnectorContent,
  IdempotencyKey,
  ConnectorEvent,
  ConnectorEventRelayState,
  ConnectorTestRun,
  ConnectorVariable,
  ConnectorVariableSet,
  ConnectorVariableSetVersion,
  ConnectorPromotion,
];

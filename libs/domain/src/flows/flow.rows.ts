import { tableRows } from '../database/table-rows';
import { FlowConnector } from './flow-connector.entity';
import { Flow } from './flow.entity';

/** The rows of flows and flow_connectors (see TableRows). */
export const FLOW_ROWS = tableRows<Flow>()('flows', {
  uuid: ['uuid', 'text'],
  botUuid: ['bot_uuid', 'text'],
  name: ['name', 'text'],
});

export const FLOW_CONNECTOR_ROWS = tableRows<FlowConnector>()('flow_connectors', {
  flowUuid: ['flow_uuid', 'text'],
  connectorUuid: ['connector_uuid', 'text'],
});

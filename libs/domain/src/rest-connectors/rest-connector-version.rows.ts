import { tableRows } from '../database/table-rows';
import { RestConnectorVersion } from './rest-connector-version.entity';

/** The rows of rest_connector_versions (see TableRows). */
export const REST_CONNECTOR_VERSION_ROWS = tableRows<RestConnectorVersion>()('rest_connector_versions', {
  connectorUuid: ['connector_uuid', 'text'],
  version: ['version', 'int'],
  operation: ['operation', 'text'],
  updatedAt: ['updated_at', 'date'],
  updatedBy: ['updated_by', 'text'],
  updatedByImage: ['updated_by_image', 'text'],
  changedFields: ['changed_fields', 'json'],
  snapshot: ['snapshot', 'json'],
});

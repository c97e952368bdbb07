import { tableRows } from '../database/table-rows';
import { Environment } from './environment.entity';

/** The rows of environments (see TableRows). */
export const ENVIRONMENT_ROWS = tableRows<Environment>()('environments', {
  uuid: ['uuid', 'text'],
  organizationUuid: ['organization_uuid', 'text'],
  name: ['name', 'text'],
  removed: ['removed', 'bool'],
  instanceUuid: ['instance_uuid', 'text'],
  instanceName: ['instance_name', 'text'],
  channelInstanceUuid: ['channel_instance_uuid', 'text'],
  channelInstanceName: ['channel_instance_name', 'text'],
  connectorInstanceUuid: ['connector_instance_uuid', 'text'],
  connectorInstanceName: ['connector_instance_name', 'text'],
  dns: ['dns', 'text'],
  apiURL: ['api_url', 'text'],
  channelApiUrl: ['channel_api_url', 'text'],
  connectorApiUrl: ['connector_api_url', 'text'],
  applications: ['applications', 'json'],
  permissions: ['permissions', 'json'],
});

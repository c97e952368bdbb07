import { tableRows } from '../database/table-rows';
import { ConnectorContent } from './connector-content.entity';
import { RestConnectorTag } from './rest-connector-tag.entity';
import { RestConnector } from './rest-connector.entity';

/** The rows of rest_connectors, rest_connector_tags and connector_content (see TableRows). */
export const REST_CONNECTOR_ROWS = tableRows<RestConnector>()('rest_connectors', {
  uuid: ['uuid', 'text'],
  botUuid: ['bot_uuid', 'text'],
  name: ['name', 'text'],
  nameKey: ['name_key', 'text'],
  activeNameKey: ['active_name_key', 'text'],
  description: ['description', 'text'],
  requestType: ['request_type', 'text'],
  url: ['url', 'text'],
  headers: ['headers', 'json'],
  contentType: ['content_type', 'text'],
  authType: ['auth_type', 'text'],
  grantType: ['grant_type', 'text'],
  basicToken: ['basic_token', 'text'],
  bearerToken: ['bearer_token', 'text'],
  clientId: ['client_id', 'text'],
  clientSecret: ['client_secret', 'text'],
  oauthUrl: ['oauth_url', 'text'],
  authUsername: ['auth_username', 'text'],
  authPassword: ['auth_password', 'text'],
  body: ['body', 'text'],
  output: ['output', 'text'],
  createdAt: ['created_at', 'date'],
  createdBy: ['created_by', 'text'],
  updatedAt: ['updated_at', 'date'],
  updatedBy: ['updated_by', 'text'],
  updatedByImage: ['updated_by_image', 'text'],
  deletedAt: ['deleted_at', 'date'],
  deletedBy: ['deleted_by', 'text'],
  version: ['version', 'int'],
});

export const REST_CONNECTOR_TAG_ROWS = tableRows<RestConnectorTag>()('rest_connector_tags', {
  connectorUuid: ['connector_uuid', 'text'],
  nameKey: ['name_key', 'text'],
  name: ['name', 'text'],
  position: ['position', 'int'],
});

export const CONNECTOR_CONTENT_ROWS = tableRows<ConnectorContent>()('connector_content', {
  connectorUuid: ['connector_uuid', 'text'],
  content: ['content', 'json'],
});

import { AuthType, ContentType, RequestType } from '@app/domain';
import { ExportedConnector } from '../connector-draft';

/** A connector as the exporters take it: a GET without auth, headers or body, unless `overrides` says otherwise. */
export function anExportedConnector(overrides: Partial<ExportedConnector> = {}): ExportedConnector {
  return {
    name: 'Connector',
    description: null,
    requestType: RequestType.GET,
    url: 'https://api.example.com/',
    headers: [],
    contentType: ContentType.NONE,
    authType: AuthType.AUTH_NONE,
    grantType: null,
    clientId: null,
    oauthUrl: null,
    authUsername: null,
    apiKeyName: null,
    apiKeyIn: null,
    body: '',
    output: '',
    ...overrides,
  };
}

import { AuthType, ContentType, RequestType, RestConnector, RestConnectorWriteDto, storedConnector } from '@app/domain';
import { plainToInstance } from 'class-transformer';

/** Data factories for the unit specs of the connector rules (the e2e suites have their own, over HTTP). */

/** A validated write body, as the pipe hands it to the service. */
export function aWriteDto(overrides: Partial<RestConnectorWriteDto> = {}): RestConnectorWriteDto {
  return plainToInstance(RestConnectorWriteDto, {
    name: 'Weather forecast',
    requestType: RequestType.GET,
    url: 'https://api.example.com/forecast/{{city}}',
    headers: [{ header: 'Accept', value: 'application/json' }],
    contentType: ContentType.NONE,
    authType: AuthType.AUTH_NONE,
    body: '',
    output: '$.data',
    tags: [{ name: 'weather' }],
    ...overrides,
  });
}

/**
 * A stored connector row: a GET without authentication, headers or body, created by alice, unless `overrides` say
 * otherwise (a name given makes its keys; secrets are stored sealed, here `sealed:<field>`). The one stored-connector
 * factory of the unit specs, the e2e suites and the bench.
 */
export function aStoredConnector(overrides: Partial<RestConnector> = {}): RestConnector {
  const created = storedConnector(
    {
      uuid: A_CONNECTOR_PATH.serviceUUID,
      botUuid: A_CONNECTOR_PATH.botUUID,
      name: overrides.name ?? 'Weather forecast',
      requestType: RequestType.GET,
      url: 'https://api.example.com/forecast/{{city}}',
      contentType: ContentType.NONE,
      authType: AuthType.AUTH_NONE,
      body: '',
      output: '$.data',
    },
    'alice',
    new Date('2026-11-21T09:00:00.000Z'),
  );
  return { ...created, ...overrides };
}

/** The bot of the stored connector, with its organization and environment. */
export const A_BOT_PATH = {
  orgUUID: '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01',
  envUUID: '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02',
  botUUID: '6bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a07',
};

/** The path of the stored connector. */
export const A_CONNECTOR_PATH = { ...A_BOT_PATH, serviceUUID: '0192f0a0-0000-7000-8000-000000000001' };

export const WRITER = { username: 'alice', picture: 'https://img.example.com/alice.png' };

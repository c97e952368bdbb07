import {
  AppConfig,
  buildOpenApiDocument,
  createPlatformApp,
  DEFAULT_CHANGE_EVENTS,
  DEFAULT_CONNECTOR_TESTS,
  DEFAULT_HTTP_TIMEOUTS,
  PlatformAppDefinition,
} from '@app/platform';
import { OpenAPIObject } from '@nestjs/swagger';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';

export const DOCUMENTED_APPS: PlatformAppDefinition[] = [TRANSACTIONAL_SERVICE_APP, ENVIRONMENT_APP, BOT_ADMIN_APP];

/** The document depends on the code only: an in-memory database and a throwaway secret will do. */
const OFFLINE_CONFIG: AppConfig = {
  nodeEnv: 'test',
  port: 0,
  database: { type: 'sqlite', path: ':memory:' },
  auth: { mode: 'secret', secret: 'documents-are-built-offline-with-this-secret' },
  secretsKey: Buffer.alloc(32),
  rateLimitPerMinute: 1,
  trustProxyHops: 0,
  httpTimeouts: DEFAULT_HTTP_TIMEOUTS,
  corsOrigins: [],
  connectorTests: DEFAULT_CONNECTOR_TESTS,
  changeEvents: DEFAULT_CHANGE_EVENTS,
  logLevel: 'silent',
  performanceOverrides: true,
  apiDocs: true,
};

export async function openApiDocumentOf(definition: PlatformAppDefinition): Promise<OpenAPIObject> {
  const app = await createPlatformApp(definition, OFFLINE_CONFIG);
  try {
    await app.init();
    return buildOpenApiDocument(app, definition);
  } finally {
    await app.close();
  }
}

/** As committed: two-space JSON and a final newline, so reviews show API changes line by line. */
export const serialize = (document: OpenAPIObject) => `${JSON.stringify(document, null, 2)}\n`;

import {
  AuthType,
  BotPath,
  ConnectorVariableRepository,
  EnvironmentPath,
  newUuid,
  VariableChange,
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  ContentType,
  creationOf,
  DEMO_ECHO_TARGET,
  openDatabase,
  insertedAtPath,
  RequestType,
  RestConnectorRepository,
  storedConnector,
  Transaction,
} from '@app/domain';
import { DataSource } from 'typeorm';
import { Importer } from '../import/importer';
import { DEMO_DATA, DEMO_IDS } from './demo-data';

const DEMO_AUTHOR = 'demo';
/** The demo connectors belong to the support bot of Acme's production environment. */
const SUPPORT_BOT: BotPath = { orgUUID: DEMO_IDS.acme, envUUID: DEMO_IDS.acmeProduction, botUUID: DEMO_IDS.supportBot };
/** Its copy in Acme's staging environment, a step ahead: what a promotion brings into production. */
const STAGING_BOT: BotPath = { orgUUID: DEMO_IDS.acme, envUUID: DEMO_IDS.acmeStaging, botUUID: DEMO_IDS.stagingBot };

/** Both Acme stages name the demo echo target as their `{{env.ECHO_URL}}`. */
const DEMO_VARIABLES = [{ name: 'ECHO_URL', value: DEMO_ECHO_TARGET.url }];

interface DemoConnector {
  bot?: BotPath;
  uuid: string;
  name: string;
  url: string;
  requestType: RequestType;
  tags: string[];
}

const DEMO_CONNECTORS: DemoConnector[] = [
  {
    uuid: DEMO_IDS.weatherConnector,
    name: 'Weather forecast',
    // The demo echo target that npm start serves in development: the first test run of the demo succeeds.
    url: `${DEMO_ECHO_TARGET.url}/v1/forecast?city={{city}}`,
    requestType: RequestType.GET,
    tags: ['weather', 'public'],
  },
  {
    uuid: DEMO_IDS.ordersConnector,
    name: 'Order status',
    url: 'https://shop.example.com/api/orders/{{orderId}}',
    requestType: RequestType.GET,
    tags: ['orders', 'shop'],
  },
  {
    uuid: DEMO_IDS.crmConnector,
    name: 'Create CRM lead',
    url: 'https://crm.example.com/api/leads',
    requestType: RequestType.POST,
    tags: ['crm'],
  },
  // Staging: the forecast reads its host from the environment, and a new connector waits to be promoted.
  {
    bot: STAGING_BOT,
    uuid: DEMO_IDS.stagingWeatherConnector,
    name: 'Weather forecast',
    url: '{{env.ECHO_URL}}/v1/forecast?city={{city}}',
    requestType: RequestType.GET,
    tags: ['weather', 'public'],
  },
  {
    bot: STAGING_BOT,
    uuid: DEMO_IDS.storeLocatorConnector,
    name: 'Store locator',
    url: '{{env.ECHO_URL}}/v1/stores?near={{city}}',
    requestType: RequestType.GET,
    tags: ['stores'],
  },
];

/**
 * Loads the demo data set into an empty database (the embedded default on its first start).
 * Returns false, and writes nothing, when the database already holds organizations.
 */
export async function seedDemoData(dataSource: DataSource): Promise<boolean> {
  const db = openDatabase(dataSource);
  const [{ organizations }] = await db.rows<{ organizations: number | string }>('SELECT COUNT(*) AS organizations FROM organizations', [], 'primary');
  if (Number(organizations) > 0) return false;
  await new Importer(dataSource).import(DEMO_DATA);
  const now = new Date();
  const connectors = new RestConnectorRepository(db);
  const history = new ConnectorHistoryRepository(db);
  const outbox = new ConnectorEventOutbox();
  const variables = new ConnectorVariableRepository(db);
  const inserted = await insertedAtPath(
    db.transaction(async (tx) => {
      for (const environment of [SUPPORT_BOT, STAGING_BOT]) await seedVariables(tx, variables, outbox, environment, now);
      for (const demo of DEMO_CONNECTORS) {
        const bot = demo.bot ?? SUPPORT_BOT;
        const connector = storedConnector(
          {
            uuid: demo.uuid,
            botUuid: bot.botUUID,
            name: demo.name,
            requestType: demo.requestType,
            url: demo.url,
            headers: [{ header: 'Accept', value: 'application/json' }],
            contentType: demo.requestType === RequestType.GET ? ContentType.NONE : ContentType.APPLICATION_JSON,
            authType: AuthType.AUTH_NONE,
            body: demo.requestType === RequestType.GET ? '' : '{"name": "{{name}}"}',
            output: '$.data',
          },
          DEMO_AUTHOR,
          now,
        );
        const tags = demo.tags.map((name, position) => ({ name, nameKey: name.toLowerCase(), position }));
        connectors.insert(tx, bot, connector, tags);
        const version = creationOf(connector, tags);
        history.record(tx, version);
        outbox.append(tx, bot, version);
      }
      // The demo's flows (imported above) name these connectors before they exist: their copies of the flows.
      await connectors.refreshFlows(
        tx,
        DEMO_CONNECTORS.map(({ uuid }) => uuid),
      );
    }),
  );
  if (!inserted.found) throw new Error('A demo connector names a bot outside its environment and organization (demo-data.ts)', { cause: inserted.refusal });
  return true;
}

/** The first version of an environment's connector variables (DEMO_VARIABLES), with its history row and change event. */
async function seedVariables(tx: Transaction, variables: ConnectorVariableRepository, outbox: ConnectorEventOutbox, path: EnvironmentPath, now: Date) {
  if (!(await variables.stepSet(tx, path, { from: 0, to: 1 }, now, DEMO_AUTHOR)))
    throw new Error(`The demo environment ${path.envUUID} already has connector variables`);
  variables.replaceVariables(
    tx,
    path,
    DEMO_VARIABLES.map(({ name, value }) => ({
      uuid: newUuid(now.getTime()),
      name,
      secret: false,
      value,
      sealedValue: null,
      destinations: [],
      updatedAt: now,
      updatedBy: DEMO_AUTHOR,
    })),
  );
  variables.record(tx, {
    environmentUuid: path.envUUID,
    organizationUuid: path.orgUUID,
    version: 1,
    updatedAt: now,
    updatedBy: DEMO_AUTHOR,
    updatedBySub: null,
    requestId: null,
    reason: null,
    promotionId: null,
    changes: DEMO_VARIABLES.map(({ name }) => ({ name, secret: false, change: VariableChange.ADDED })),
    snapshot: DEMO_VARIABLES.map(({ name, value }) => ({ name, secret: false, value, destinations: [] })),
  });
  outbox.appendVariables(tx, path, 1, now);
}

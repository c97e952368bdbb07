import {
  AuthType,
  BotPath,
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
} from '@app/domain';
import { DataSource } from 'typeorm';
import { Importer } from '../import/importer';
import { DEMO_DATA, DEMO_IDS } from './demo-data';

const DEMO_AUTHOR = 'demo';
/** The demo connectors belong to the support bot of Acme's production environment. */
const SUPPORT_BOT: BotPath = { orgUUID: DEMO_IDS.acme, envUUID: DEMO_IDS.acmeProduction, botUUID: DEMO_IDS.supportBot };

interface DemoConnector {
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
  const inserted = await insertedAtPath(
    db.transaction(async (tx) => {
      for (const demo of DEMO_CONNECTORS) {
        const connector = storedConnector(
          {
            uuid: demo.uuid,
            botUuid: DEMO_IDS.supportBot,
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
        connectors.insert(tx, SUPPORT_BOT, connector, tags);
        const version = creationOf(connector, tags);
        history.record(tx, version);
        outbox.append(tx, SUPPORT_BOT, version);
      }
    }),
  );
  if (!inserted.found) throw new Error('A demo connector names a bot outside its environment and organization (demo-data.ts)', { cause: inserted.refusal });
  return true;
}

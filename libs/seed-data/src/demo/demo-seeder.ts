import { DataSource } from 'typeorm';
import { Importer } from '../import/importer';
import { Organization } from '@app/domain';
import { RestConnectorTag } from '@app/domain';
import { RestConnector } from '@app/domain';
import { AuthType, ContentType, RequestType } from '@app/domain';
import { DEMO_DATA, DEMO_IDS } from './demo-data';

const DEMO_AUTHOR = 'demo';

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
    url: 'https://api.weather.example.com/v1/forecast?city={{city}}',
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
  if ((await dataSource.getRepository(Organization).count()) > 0) return false;
  await new Importer(dataSource).import(DEMO_DATA);
  const now = new Date();
  await dataSource.transaction(async (manager) => {
    for (const demo of DEMO_CONNECTORS) {
      await manager.insert(RestConnector, {
        uuid: demo.uuid,
        botUuid: DEMO_IDS.supportBot,
        name: demo.name,
        nameKey: demo.name.toLowerCase(),
        activeNameKey: demo.name.toLowerCase(),
        description: null,
        requestType: demo.requestType,
        url: demo.url,
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: demo.requestType === RequestType.GET ? ContentType.NONE : ContentType.APPLICATION_JSON,
        authType: AuthType.AUTH_NONE,
        body: demo.requestType === RequestType.GET ? '' : '{"name": "{{name}}"}',
        output: '$.data',
        createdAt: now,
        createdBy: DEMO_AUTHOR,
        updatedAt: now,
        updatedBy: DEMO_AUTHOR,
        updatedByImage: null,
        version: 1,
      });
      await manager.insert(
        RestConnectorTag,
        demo.tags.map((name, position) => ({ connectorUuid: demo.uuid, name, nameKey: name.toLowerCase(), position })),
      );
    }
  });
  return true;
}

import { ImportFile } from '../import/import-file';

/** Fixed ids, so the README's examples work against a fresh `npm start`. */
export const DEMO_IDS = {
  acme: '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01',
  acmeProduction: '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02',
  acmeStaging: '2d8b6e4a-3f3c-4ca0-9c5a-7b3b8ebf4c03',
  acmeLegacy: '3e9c7f5b-4a4d-4db1-8d6b-8c4c9fca5d04',
  globex: '4fad806c-5b5e-4ec2-9e7c-9d5dafdb6e05',
  globexProduction: '5abe917d-6c6f-4fd3-8f8d-ae6eb0ec7f06',
  supportBot: '6bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a07',
  salesBot: '7cdab39f-8e8b-4bf5-8baf-c08ad20e9b08',
  stagingBot: '8debc4a0-9f9c-4c06-9cb0-d19be31fac09',
  globexBot: '9efcd5b1-a0ad-4d17-8dc1-e2acf420bd0a',
  weatherConnector: 'aa0de6c2-b1be-4e28-9ed2-f3bd0531ce0b',
  ordersConnector: 'bb1ef7d3-c2cf-4f39-8fe3-04ce1642df0c',
  crmConnector: 'cc2f08e4-d3d0-4a4a-9af4-15df2753e00d',
  stagingWeatherConnector: 'ff52b3a7-06a3-4d7d-8d27-48025a86132a',
  storeLocatorConnector: 'a163c4b8-17b4-4e8e-9e38-59136b97243b',
  welcomeFlow: 'dd3019f5-e4e1-4b5b-8b05-26e03864f10e',
  ordersFlow: 'ee412a06-f5f2-4c6c-9c16-37f14975021f',
} as const;

/** A small data set in the import format: two organizations, their environments, bots and flows. */
export const DEMO_DATA: ImportFile = {
  organizations: [
    { uuid: DEMO_IDS.acme, name: 'Acme Corporation' },
    { uuid: DEMO_IDS.globex, name: 'Globex' },
  ],
  environments: [
    {
      uuid: DEMO_IDS.acmeProduction,
      organizationUuid: DEMO_IDS.acme,
      name: 'Production',
      removed: false,
      instanceUuid: 'f1a2b3c4-0001-4000-8000-000000000001',
      instanceName: 'acme-prod',
      channelInstanceUuid: 'f1a2b3c4-0002-4000-8000-000000000002',
      channelInstanceName: 'acme-prod-channels',
      connectorInstanceUuid: 'f1a2b3c4-0003-4000-8000-000000000003',
      connectorInstanceName: 'acme-prod-connectors',
      dns: 'acme-prod.bots.example.com',
      apiURL: 'https://acme-prod.bots.example.com/api',
      channelApiUrl: 'https://acme-prod.bots.example.com/channels',
      connectorApiUrl: 'https://acme-prod.bots.example.com/connectors',
      applications: [
        { name: 'channel-gateway', version: '2.4.1', properties: { region: 'eu-west-1', replicas: '3' } },
        { name: 'nlu', version: '1.9.0', properties: { language: 'en', model: 'large' } },
      ],
      permissions: ['bots:read', 'bots:write', 'connectors:write'],
    },
    {
      uuid: DEMO_IDS.acmeStaging,
      organizationUuid: DEMO_IDS.acme,
      name: 'Staging',
      dns: 'acme-staging.bots.example.com',
      apiURL: 'https://acme-staging.bots.example.com/api',
      applications: [{ name: 'channel-gateway', version: '2.5.0-rc.1', properties: {} }],
      permissions: ['bots:read'],
    },
    { uuid: DEMO_IDS.acmeLegacy, organizationUuid: DEMO_IDS.acme, name: 'Legacy', removed: true },
    {
      uuid: DEMO_IDS.globexProduction,
      organizationUuid: DEMO_IDS.globex,
      name: 'Production',
      dns: 'globex.bots.example.com',
      apiURL: 'https://globex.bots.example.com/api',
    },
  ],
  bots: [
    {
      uuid: DEMO_IDS.supportBot,
      environmentUuid: DEMO_IDS.acmeProduction,
      name: 'Support assistant',
      image: 'https://cdn.example.com/bots/support.png',
    },
    {
      uuid: DEMO_IDS.salesBot,
      environmentUuid: DEMO_IDS.acmeProduction,
      name: 'Sales assistant',
      image: 'https://cdn.example.com/bots/sales.png',
    },
    { uuid: DEMO_IDS.stagingBot, environmentUuid: DEMO_IDS.acmeStaging, name: 'Support assistant (staging)' },
    { uuid: DEMO_IDS.globexBot, environmentUuid: DEMO_IDS.globexProduction, name: 'Helpdesk' },
  ],
  flows: [
    {
      uuid: DEMO_IDS.welcomeFlow,
      botUuid: DEMO_IDS.supportBot,
      name: 'Welcome',
      connectors: [DEMO_IDS.weatherConnector, DEMO_IDS.crmConnector],
    },
    { uuid: DEMO_IDS.ordersFlow, botUuid: DEMO_IDS.supportBot, name: 'Order status', connectors: [DEMO_IDS.ordersConnector] },
  ],
  connectorContent: {
    [DEMO_IDS.ordersConnector]: [
      {
        id: 'opt-1',
        option: 'Track my order',
        expressionCode: 'order.status',
        connectedTo: 'node-42',
        buttonText: 'Track',
        buttonType: 'POSTBACK',
        urlRedirect: false,
        buttonUrl: '',
        cockpitUUID: 'c0c0a000-0000-4000-8000-000000000001',
      },
    ],
  },
};

import { DEMO_IDS } from './demo-data';

/** The demo record each path id names: the Acme production environment, its support bot, its weather connector. */
export const DEMO_PATH_IDS: Readonly<Record<string, string>> = {
  orgUUID: DEMO_IDS.acme,
  envUUID: DEMO_IDS.acmeProduction,
  botUUID: DEMO_IDS.supportBot,
  serviceUUID: DEMO_IDS.weatherConnector,
};

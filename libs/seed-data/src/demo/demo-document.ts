import { OpenAPIObject } from '@nestjs/swagger';
import { DEMO_IDS } from './demo-data';

/** The demo record each path id names: the Acme production environment, its support bot, its weather connector. */
const DEMO_PATH_IDS: Record<string, string> = {
  orgUUID: DEMO_IDS.acme,
  envUUID: DEMO_IDS.acmeProduction,
  botUUID: DEMO_IDS.supportBot,
  serviceUUID: DEMO_IDS.weatherConnector,
};

/**
 * The served document outside production: path ids pre-filled with the demo data's, so Swagger UI's
 * "Try it out" works at once after `npm start`. The committed document keeps the generic example.
 */
export function withDemoPathIds(document: OpenAPIObject): OpenAPIObject {
  const result = structuredClone(document);
  for (const item of Object.values(result.paths)) {
    for (const operation of Object.values(item as Record<string, { parameters?: any[] }>)) {
      for (const parameter of operation.parameters ?? []) {
        const id = parameter.in === 'path' ? DEMO_PATH_IDS[parameter.name] : undefined;
        if (id) parameter.schema = { ...parameter.schema, example: id };
      }
    }
  }
  return result;
}

import { DEMO_IDS, seedDemoData } from '@app/seed-data';
import { PlatformAppDefinition } from '@app/platform';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { connectChromium } from '../support/chromium';
import { sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { signToken } from '../support/tokens';
import { AppName } from './committed-documents';
import { authorize, documentedOperations, listenOnLoopback, openSwaggerUi, SCREENSHOT_DIR, tryItOut } from './swagger-ui-browser';

/** A read of each app and the demo record its answer shows. */
const CASES: Array<{ app: AppName; definition: PlatformAppDefinition; operationId: string; expectedText: string[] }> = [
  {
    app: 'transactional-service',
    definition: TRANSACTIONAL_SERVICE_APP,
    operationId: 'getRestConnector',
    expectedText: [DEMO_IDS.weatherConnector, 'Weather forecast'],
  },
  {
    app: 'transactional-service',
    definition: TRANSACTIONAL_SERVICE_APP,
    operationId: 'connectorEvents',
    expectedText: [DEMO_IDS.weatherConnector, 'connector.created.v1', `/org/${DEMO_IDS.acme}/env/${DEMO_IDS.acmeProduction}/bot/${DEMO_IDS.supportBot}`],
  },
  { app: 'environment', definition: ENVIRONMENT_APP, operationId: 'getEnvironment', expectedText: [DEMO_IDS.acmeProduction, 'Production'] },
  { app: 'bot-admin', definition: BOT_ADMIN_APP, operationId: 'getBot', expectedText: [DEMO_IDS.supportBot, 'Support assistant'] },
];

/**
 * A newcomer after `npm start` (outside production, demo data loaded): authorize, "Try it out" on a read
 * and "Execute" without typing any id. The path ids Swagger UI pre-fills must name the demo records.
 */
describe('Swagger UI on the demo data, with the pre-filled path ids', () => {
  const config = sqliteTestConfig({ nodeEnv: 'development' });
  let browser: Browser;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    browser = await connectChromium();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
  });

  it.each(CASES)(
    '$definition.label: "Try it out" on $operationId as pre-filled answers 200 with the demo record',
    async ({ app, definition, operationId, expectedText }) => {
      const sut = await startTestApp(definition, config);
      apps.push(sut);
      await seedDemoData(sut.dataSource);
      const origin = await listenOnLoopback(sut);
      const operation = documentedOperations(app).find((op) => op.operationId === operationId)!;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();

      try {
        await openSwaggerUi(page, `${origin}/${definition.label}/docs`);
        await authorize(page, await signToken({ orgs: [DEMO_IDS.acme], username: 'newcomer' }));
        const response = await tryItOut(page, operation, {});

        expect(response.status).toBe('200');
        for (const text of expectedText) expect(response.body).toContain(text);
      } catch (error) {
        writeFileSync(join(SCREENSHOT_DIR, `${app}.demo.failed.html`), await page.content());
        throw error;
      } finally {
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${app}.demo.png`), fullPage: true });
        await context.close();
      }
    },
    60_000,
  );
});

import { PlatformAppDefinition } from '@app/platform';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { farSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { aConnectorBody, createConnector } from '../rest-connectors/connector-factories';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { connectChromium } from '../support/chromium';
import { seedTenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { signToken } from '../support/tokens';
import {
  authorize,
  collectBrowserErrors,
  collectOperationRequests,
  collectRequestedOrigins,
  documentedOperations,
  listedOperations,
  listenOnLoopback,
  openSwaggerUi,
  SCREENSHOT_DIR,
  tryItOut,
} from './swagger-ui-browser';
import { AppName } from './committed-documents';
import { connectorEventsDocumentSource } from '../support/asyncapi';

/** What the browser reads: an operation of the app, its path parameters, and text its 200 body must show. */
interface ReadScenario {
  token: string;
  operationId: string;
  pathParams: Record<string, string>;
  expectedText: string[];
}

interface AppCase {
  app: AppName;
  definition: PlatformAppDefinition;
  /** Seeds a tenant with data in the app's database and picks the read operation to try out. */
  seed(sut: TestApp): Promise<ReadScenario>;
}

const tokenFor = (orgUuid: string) => signToken({ orgs: [orgUuid], scope: 'connectors:write', username: 'swagger-ui' });

const CASES: AppCase[] = [
  {
    app: 'transactional-service',
    definition: TRANSACTIONAL_SERVICE_APP,
    async seed(sut) {
      const tenant = await seedTenant(sut.dataSource);
      const token = await tokenFor(tenant.organization.uuid);
      const name = `Swagger UI connector ${tenant.bot.uuid.slice(0, 8)}`;
      const serviceUUID = await createConnector(sut, tenant, token, { name });
      return {
        token,
        operationId: 'getRestConnector',
        pathParams: {
          orgUUID: tenant.organization.uuid,
          envUUID: tenant.environment.uuid,
          botUUID: tenant.bot.uuid,
          serviceUUID,
        },
        expectedText: [serviceUUID, name],
      };
    },
  },
  {
    app: 'environment',
    definition: ENVIRONMENT_APP,
    async seed(sut) {
      const tenant = await seedTenant(sut.dataSource);
      return {
        token: await tokenFor(tenant.organization.uuid),
        operationId: 'getEnvironment',
        pathParams: { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid },
        expectedText: [tenant.environment.uuid, tenant.environment.name],
      };
    },
  },
  {
    app: 'bot-admin',
    definition: BOT_ADMIN_APP,
    async seed(sut) {
      const tenant = await seedTenant(sut.dataSource);
      return {
        token: await tokenFor(tenant.organization.uuid),
        operationId: 'listBots',
        pathParams: { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid },
        expectedText: [tenant.bot.uuid, tenant.bot.name],
      };
    },
  },
];

/**
 * Console errors a correct page still shows. Chromium logs every non-2xx response as a console error
 * ("Failed to load resource"); none is expected here, so the list is empty. Add entries with a reason.
 */
const BENIGN_BROWSER_ERRORS: RegExp[] = [];

describe('Swagger UI in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe.each(CASES)('$definition.label', ({ app, definition, seed }) => {
    let sut: TestApp;
    let origin: string;
    let context: BrowserContext;
    let page: Page;
    let errors: string[];
    let requested: Set<string>;
    let sent: Request[];

    beforeAll(async () => {
      sut = await startTestApp(definition, mysqlTestConfig());
      origin = await listenOnLoopback(sut);
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      errors = collectBrowserErrors(page);
      requested = collectRequestedOrigins(page);
      sent = collectOperationRequests(page, definition.label);
    });
    afterAll(async () => {
      await context?.close();
      await sut?.close();
    });

    it('lists every documented operation, authorizes, tries out a read and gets 200 with data', async () => {
      const scenario = await seed(sut);
      const documented = documentedOperations(app);
      const operation = documented.find((op) => op.operationId === scenario.operationId);
      if (!operation) throw new Error(`docs/openapi/${app}.json has no operation ${scenario.operationId}`);

      try {
        await openSwaggerUi(page, `${origin}/${definition.label}/docs`);

        const listed = await listedOperations(page);
        expect(listed).toEqual(expect.arrayContaining(documented.map(({ method, path, summary }) => ({ method, path, summary }))));
        expect(listed).toHaveLength(documented.length);
        // One section per task, in the order a user works, and each section's operations in that order too.
        const sections = await page
          .locator('.swagger-ui .opblock-tag-section .opblock-tag')
          .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag')));
        expect(sections).toEqual(definition.groups.map((group) => group.name));
        const inOrder = definition.groups.flatMap((group) => group.operations).map((id) => documented.find((op) => op.operationId === id)!);
        expect(listed.map(({ method, path }) => `${method} ${path}`)).toEqual(inOrder.map(({ method, path }) => `${method} ${path}`));

        await authorize(page, scenario.token);
        const response = await tryItOut(page, operation, scenario.pathParams);

        const concretePath = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => scenario.pathParams[name]);
        expect(response.requestUrl).toBe(`${origin}${concretePath}`);
        expect(response.status).toBe('200');
        for (const text of scenario.expectedText) expect(response.body).toContain(text);
        // The optional headers nobody typed were not sent: a Consistency-Token or request id Swagger UI made up would be.
        expect(sent.map((request) => request.url())).toEqual([response.requestUrl]);
        const headers = await sent[0].allHeaders();
        expect(headers.authorization).toBe(`Bearer ${scenario.token}`);
        expect(Object.keys(headers).filter((name) => ['consistency-token', 'x-request-id'].includes(name))).toEqual([]);
      } catch (error) {
        // What the browser showed, for the next person to read instead of guessing selectors.
        writeFileSync(join(SCREENSHOT_DIR, `${app}.failed.html`), await page.content());
        throw error;
      } finally {
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${app}.png`), fullPage: true });
      }

      expect(errors.filter((error) => !BENIGN_BROWSER_ERRORS.some((benign) => benign.test(error)))).toEqual([]);
      expect([...requested]).toEqual([origin]);
    }, 60_000);
  });

  it('links the AsyncAPI document under the title of the app that publishes events; the link answers it, as committed', async () => {
    const sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      const origin = await listenOnLoopback(sut);
      await openSwaggerUi(page, `${origin}/${TRANSACTIONAL_SERVICE_APP.label}/docs`);
      const link = page.locator('.swagger-ui .info .info__extdocs');
      expect(await link.innerText()).toBe('The messages this app publishes: its AsyncAPI 3.0 document (YAML)');

      const answer = await page.request.get(new URL((await link.getAttribute('href'))!, page.url()).href);
      expect(answer.status()).toBe(200);
      expect(await answer.text()).toBe(connectorEventsDocumentSource().text);
    } catch (error) {
      writeFileSync(join(SCREENSHOT_DIR, 'asyncapi-link.failed.html'), await page.content());
      throw error;
    } finally {
      await context.close();
      await sut.close();
    }
  }, 60_000);

  it('runs a connector test from Swagger UI: the far side on 127.0.0.2 gets the call, the page shows what came back', async () => {
    const sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ connectorTests: loopbackTestRuns({ timeoutMs: 5_000 }) }), withResolver());
    const side = await farSide();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = collectBrowserErrors(page);
    const requested = collectRequestedOrigins(page);
    try {
      const origin = await listenOnLoopback(sut);
      const tenant = await seedTenant(sut.dataSource);
      const operation = documentedOperations('transactional-service').find((op) => op.operationId === 'testUnsavedRestConnector')!;
      const body = JSON.stringify(
        { connector: aConnectorBody({ url: `${side.url}/levels/{{city}}`, output: '$.data.level' }), variables: { city: 'Lisbon' } },
        null,
        2,
      );

      await openSwaggerUi(page, `${origin}/platform-transactional-service/docs`);
      await authorize(page, await tokenFor(tenant.organization.uuid));
      const response = await tryItOut(page, operation, { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid, botUUID: tenant.bot.uuid }, body);

      expect(response.status).toBe('200');
      const answer = JSON.parse(response.body);
      expect(answer).toMatchObject({ outcome: 'SUCCESS', request: { url: `${side.url}/levels/Lisbon` }, response: { status: 200 }, output: { values: [7] } });
      expect(side.received).toEqual([expect.objectContaining({ method: 'GET', url: '/levels/Lisbon' })]);
      expect(errors).toEqual([]);
      // The browser talked to the app only; the far side's request came from the app's outbound call.
      expect([...requested]).toEqual([origin]);
    } catch (error) {
      writeFileSync(join(SCREENSHOT_DIR, 'test-run.failed.html'), await page.content());
      throw error;
    } finally {
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'test-run.png'), fullPage: true });
      await context.close();
      await side.close();
      await sut.close();
    }
  }, 60_000);
});

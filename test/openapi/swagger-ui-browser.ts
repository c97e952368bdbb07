import { AddressInfo } from 'node:net';
import { AppName, committedDocument, DocumentedOperation, operationsOf } from './committed-documents';
import { join } from 'node:path';
import { ConsoleMessage, Locator, Page, Request } from 'playwright-core';
import { ROOT } from '../support/run-command';
import { TestApp } from '../support/test-app';

/** Not committed (.gitignore). */
export const SCREENSHOT_DIR = join(ROOT, 'test-output', 'swagger-ui');

/** Serves the app on a real port of the loopback interface; returns its origin. */
export async function listenOnLoopback(sut: TestApp): Promise<string> {
  await sut.app.listen(0, '127.0.0.1');
  const { port } = sut.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** The operations of the committed document of `app`. */
export const documentedOperations = (app: AppName): DocumentedOperation[] => operationsOf(committedDocument(app));

/** Uncaught page errors and console messages of type 'error', as text. */
export function collectBrowserErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  return errors;
}

/**
 * The origin of every network request the page makes (http, https and WebSocket; `data:` and `blob:` URLs
 * are no requests), each once: a test asserts that Swagger UI fetched nothing but from the app under test,
 * no CDN and no online validator.
 */
export function collectRequestedOrigins(page: Page): Set<string> {
  const origins = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) origins.add(url.origin);
  });
  return origins;
}

/**
 * The requests the page sends to the app's operations (under `/{label}/`, the documentation excepted): what "Try it
 * out" sent, headers included (`allHeaders()`), to check that nobody's values went with it but those typed.
 */
export function collectOperationRequests(page: Page, label: string): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith(`/${label}/`) && !pathname.startsWith(`/${label}/docs`)) requests.push(request);
  });
  return requests;
}

/** Opens Swagger UI and waits until the operations are rendered. */
export async function openSwaggerUi(page: Page, url: string): Promise<void> {
  const response = await page.goto(url, { waitUntil: 'load' });
  if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`);
  await page.locator('.swagger-ui .opblock').first().waitFor({ state: 'visible' });
}

/** The operations Swagger UI lists: method, path (raw, from data-path) and summary. */
export function listedOperations(page: Page): Promise<Array<{ method: string; path: string; summary: string }>> {
  return page.locator('.swagger-ui .opblock').evaluateAll((blocks) =>
    blocks.map((block) => ({
      method: (block.querySelector('.opblock-summary-method')?.textContent ?? '').trim().toLowerCase(),
      path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
      summary: (block.querySelector('.opblock-summary-description')?.textContent ?? '').trim(),
    })),
  );
}

/** The operation's block: Swagger UI gives it the id `operations-<tag>-<operationId>`. */
export function operationBlock(page: Page, operation: DocumentedOperation): Locator {
  return page.locator(`.opblock.opblock-${operation.method}`).filter({
    has: page.locator(`.opblock-summary-path[data-path="${operation.path}"]`),
  });
}

/** "Authorize": fills the bearer token of the `bearer` scheme, authorizes and closes the dialog. */
export async function authorize(page: Page, token: string): Promise<void> {
  await page.locator('.auth-wrapper .btn.authorize').click();
  const dialog = page.locator('.modal-ux');
  await dialog.waitFor({ state: 'visible' });
  const container = dialog.locator('.auth-container').filter({ hasText: 'bearer' });
  await container.locator('input').fill(token);
  await container.locator('.btn.modal-btn.auth.authorize').click();
  // Authorized: the value is masked and the button turns into "Logout".
  await container.locator('.btn.modal-btn.auth', { hasText: 'Logout' }).waitFor({ state: 'visible' });
  await dialog.locator('.btn.modal-btn.auth.btn-done').click();
  await dialog.waitFor({ state: 'detached' });
  // The padlock of the top button shows the locked state.
  await page.locator('.auth-wrapper .btn.authorize.locked').waitFor({ state: 'visible' });
}

export interface LiveResponse {
  status: string;
  body: string;
  requestUrl: string;
}

/**
 * Expands the operation, "Try it out", fills the path parameters (and the request body, replacing the example
 * Swagger UI put there), "Execute" and reads the live response.
 */
export async function tryItOut(page: Page, operation: DocumentedOperation, pathParams: Record<string, string>, requestBody?: string): Promise<LiveResponse> {
  const block = operationBlock(page, operation);
  await block.locator('.opblock-summary').first().click();
  await block.locator('.try-out__btn').click();
  for (const [name, value] of Object.entries(pathParams)) {
    await block.locator(`tr[data-param-name="${name}"][data-param-in="path"] input`).fill(value);
  }
  if (requestBody !== undefined) await block.locator('textarea.body-param__text').fill(requestBody);
  await block.locator('.btn.execute').click();
  const live = block.locator('.responses-table.live-responses-table');
  await live.waitFor({ state: 'visible' });
  const status = (await live.locator('tbody .response-col_status').first().innerText()).trim();
  // The body's <pre> (the highlight-code box also holds a "Download" button).
  const body = await live.locator('.response-col_description .highlight-code pre').first().innerText();
  const requestUrl = (await block.locator('.request-url pre').innerText()).trim();
  return { status, body, requestUrl };
}

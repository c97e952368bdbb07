import { AppConfig } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { startTestApp } from '../support/test-app';
import { loopbackTestRuns, withResolver } from './loopback-resolver';

/** An app whose test runs reach far sides on 127.0.0.2 only, logging at info (the tests read its lines). */
export const startRunsApp = (config: AppConfig, perMinute = 10_000) =>
  startTestApp(TRANSACTIONAL_SERVICE_APP, { ...config, logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: 10_000, perMinute }) }, withResolver());

/** The request ids of a page of recorded runs, in its order. */
export const requestIds = (page: { body: { content: Array<{ requestId: string }> } }): string[] => page.body.content.map((run) => run.requestId);

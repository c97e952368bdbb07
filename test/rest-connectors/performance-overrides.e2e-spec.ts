import { ExpressAdapter } from '@nestjs/platform-express';
import { isValidationMetadataCached, PlatformExpressAdapter } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The suites that exercise an override run twice in `npm test`: in the e2e project with the performance
 * overrides, and in the e2e-stock project without them (test/support/stock-path.ts, jest.config.js). This suite
 * proves which path each run is really on, so neither run can pass on the other's path.
 */
describe('Performance overrides: the path this run is on', () => {
  let sut: TestApp;
  const stock = process.env.PERFORMANCE_OVERRIDES === 'off';

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
  });
  afterAll(() => sut.close());

  it(stock ? "is Nest's stock path: ExpressAdapter, class-validator unpatched" : 'is the fast path: PlatformExpressAdapter, class-validator cached', () => {
    const adapter = sut.app.getHttpAdapter();

    expect(adapter).toBeInstanceOf(ExpressAdapter);
    expect(adapter instanceof PlatformExpressAdapter).toBe(!stock);
    expect(isValidationMetadataCached()).toBe(!stock);
  });
});

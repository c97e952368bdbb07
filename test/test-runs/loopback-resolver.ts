import { ConnectorTestConfig, DEFAULT_CONNECTOR_TESTS, PlatformAppOptions } from '@app/platform';
import { OUTBOUND_RESOLVE } from '../../apps/transactional-service/src/rest-connectors/test-runs/outbound.providers';
import { Resolve } from '../../apps/transactional-service/src/rest-connectors/test-runs/outbound-guard';

/** A name that resolves to the far sides' admitted address. */
export const FAR_SIDE_HOST = 'far-side.test';

/**
 * The resolver the test-run e2e tests give the app (OUTBOUND_RESOLVE): it answers from this table and never
 * asks a name server, so no test resolves, or connects, outside loopback. Addresses outside 127.0.0.0/8 and ::1
 * appear only as answers the guard must refuse; nothing ever connects to them.
 */
export function loopbackResolver(extra: Record<string, string[]> = {}): Resolve {
  const table: Record<string, string[]> = {
    localhost: ['127.0.0.1', '::1'],
    [FAR_SIDE_HOST]: ['127.0.0.2'],
    ...extra,
  };
  return async (hostname) => {
    const answer = table[hostname.toLowerCase()];
    if (answer) return answer;
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
}

/** Test runs of an app under test that reach far sides on 127.0.0.2 only (OUTBOUND_ALLOWED_CIDRS), with `overrides`. */
export const loopbackTestRuns = (overrides: Partial<ConnectorTestConfig> = {}): ConnectorTestConfig => ({
  ...DEFAULT_CONNECTOR_TESTS,
  allowedCidrs: ['127.0.0.2/32'],
  ...overrides,
});

/** The app options that make `resolve` (by default loopbackResolver) its test runs' resolver. */
export const withResolver = (resolve: Resolve = loopbackResolver()): Pick<PlatformAppOptions, 'providers'> => ({
  providers: [{ provide: OUTBOUND_RESOLVE, useValue: resolve }],
});

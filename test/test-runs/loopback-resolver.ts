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

import { Provider } from '@nestjs/common';
import { RELAY_TIMING, RELAY_TIMING_TOKEN, RelayTiming } from '../../apps/transactional-service/src/connector-events/relay/connector-event-relay';

/** The relay's pace for a test app (PlatformAppOptions.providers). */
export const relayTiming = (timing: Partial<RelayTiming>): Provider => ({ provide: RELAY_TIMING_TOKEN, useValue: { ...RELAY_TIMING, ...timing } });

/**
 * A relay that takes one round at start, then waits an hour and renews nothing (its lease ends, another app's relay
 * may take it): for tests that count the statements of requests.
 */
export const PAUSED_RELAY = relayTiming({ idleMs: 3_600_000, followerMs: 3_600_000, renewMs: 3_600_000 });

import type { Server } from 'node:http';
import { HttpTimeouts } from '../config/app-config';

/** The longest node:http waits between its checks of the headers and request timeouts (its own default: 30 s). */
const MAX_CHECK_INTERVAL_MS = 1_000;

/**
 * Bounds what a client may hold a connection for: its headers (`headersTimeout`; a connection that sends
 * nothing too), its whole request (`requestTimeout`), then 408 and close; an idle kept-alive connection
 * (`keepAliveTimeout`). node:http checks the first two every `connectionsCheckingInterval`, read when the
 * server starts listening: so this runs before `listen`, and checks often enough that a timeout is overrun
 * by a second at most, not by node's default 30 s.
 */
export function applyServerTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(MAX_CHECK_INTERVAL_MS, timeouts.headersTimeoutMs);
}

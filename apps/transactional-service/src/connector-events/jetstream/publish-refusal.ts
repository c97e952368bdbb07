import { JetStreamApiError } from '@nats-io/jetstream';
import { InvalidArgumentError, PermissionViolationError } from '@nats-io/transport-node';

/** JetStream's status when it can take no message at all for now (no resources, no stream leader): the broker's state. */
const UNAVAILABLE = 503;

/**
 * Whether a failed publish was refused for this message, so that trying it again would most likely fail the same way:
 * JetStream answered an error for it (too large for the stream's max_msg_size, a subject or an expected stream it
 * rejects, a limit of the stream), the client would not send it (larger than the server's max_payload), or the server
 * refused its subject to this connection's user. Everything else (no connection, no answer in time, no stream for the
 * subject, JetStream unavailable) is the broker's state: retried as it is, never counted against the event.
 */
export function isRefusal(error: unknown): boolean {
  if (error instanceof JetStreamApiError) return error.status !== UNAVAILABLE;
  if (error instanceof InvalidArgumentError) return error.message.includes('max_payload');
  return error instanceof PermissionViolationError;
}

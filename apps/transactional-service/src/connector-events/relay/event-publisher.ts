/**
 * Where the relay publishes events: NATS JetStream (jetstream/), when NATS_URL is set. `publish` resolves after
 * the broker's acknowledgement and rejects on any failure or timeout; the relay stops at the first rejection.
 */
export interface ConnectorEventPublisher {
  publish(subject: string, event: object, msgId: string): Promise<{ duplicate: boolean; seq: number }>;
  status(): 'up' | 'down';
  close(): Promise<void>;
}

/** The injection token of the publisher: null without NATS_URL. */
export const CONNECTOR_EVENT_PUBLISHER = Symbol('CONNECTOR_EVENT_PUBLISHER');

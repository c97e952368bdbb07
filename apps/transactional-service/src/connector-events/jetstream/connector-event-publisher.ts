/** What the outbox relay publishes through: one connector change event, acknowledged by JetStream or refused. */
export interface ConnectorEventPublisher {
  /**
   * Publishes one structured CloudEvent (JSON) on `subject` with header Nats-Msg-Id = msgId (JetStream's dedup) and
   * content-type application/cloudevents+json; resolves after JetStream's publish acknowledgement, rejects on any
   * failure or after a timeout (never hangs): with ConnectorEventRefusedError when the message itself was refused.
   */
  publish(subject: string, event: object, msgId: string): Promise<{ duplicate: boolean; seq: number }>;
  /** 'up' when connected and the stream was found or created; 'down' otherwise. Synchronous. */
  status(): 'up' | 'down';
  /**
   * True from the start until the first connection attempt has concluded: connected with the stream ready, or failed
   * and logged why (unreachable after the connect timeout, a server too old, no stream). A publish before then could
   * only fail, and would say NATS is down when it may be a moment from connecting. Synchronous.
   */
  connecting(): boolean;
  close(): Promise<void>;
}

/**
 * A publish refused for this message (JetStream answered an error for it, or the client would not send it): trying it
 * again would most likely fail the same way, unlike a broker that is down or silent. The relay counts these per event
 * and parks the event after EVENTS_PUBLISH_MAX_ATTEMPTS (docs/operations.md, "Parked events").
 */
export class ConnectorEventRefusedError extends Error {
  override readonly name = 'ConnectorEventRefusedError';
}

/** The subjects' first tokens; the stream takes `<prefix>.>`. */
export const CONNECTOR_EVENTS_SUBJECT_PREFIX = 'connectors.events';

/**
 * `connectors.events.<org>.<env>.variables`: the subject of the changes of an environment's connector variables, under
 * the environment's connectors (`connectors.events.<org>.<env>.>` takes both; a bot's `…<bot>.*` neither's other).
 */
export function connectorVariablesEventSubject(orgUuid: string, envUuid: string, prefix = CONNECTOR_EVENTS_SUBJECT_PREFIX): string {
  const wrong = [orgUuid, envUuid].find((id) => !UUID.test(id));
  if (wrong !== undefined) throw new TypeError(`connector events: a subject is made of UUIDs, got ${JSON.stringify(wrong)}`);
  return [prefix, orgUuid.toLowerCase(), envUuid.toLowerCase(), 'variables'].join('.');
}

/** The media type of a structured-mode CloudEvent in JSON (CloudEvents 1.0, JSON event format). */
export const CLOUDEVENTS_JSON = 'application/cloudevents+json';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `connectors.events.<org>.<env>.<bot>.<connector>`: a consumer filters per tenant with a wildcard after any token
 * (`connectors.events.<org>.>`). The ids are lower-cased, as the API stores and answers them, so that a filter written
 * from an API answer matches. `prefix` is for tests that need subjects of their own on a shared server.
 */
export function connectorEventSubject(
  orgUuid: string,
  envUuid: string,
  botUuid: string,
  connectorUuid: string,
  prefix = CONNECTOR_EVENTS_SUBJECT_PREFIX,
): string {
  const ids = [orgUuid, envUuid, botUuid, connectorUuid];
  const wrong = ids.find((id) => !UUID.test(id));
  // A '.', '*', '>' or a space in an id would change which subscribers get the event.
  if (wrong !== undefined) throw new TypeError(`connector events: a subject is made of UUIDs, got ${JSON.stringify(wrong)}`);
  return [prefix, ...ids.map((id) => id.toLowerCase())].join('.');
}

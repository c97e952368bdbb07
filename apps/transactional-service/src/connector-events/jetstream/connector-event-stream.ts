import { DiscardPolicy, JetStreamApiCodes, JetStreamApiError, JetStreamManager, RetentionPolicy, StorageType, StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { CONNECTOR_EVENTS_SUBJECT_PREFIX } from './connector-event-publisher';

export const DEFAULT_STREAM = 'CONNECTOR_EVENTS';
export const DEFAULT_DUPLICATE_WINDOW_S = 120;

/** What the stream must be; everything else (replicas, limits on messages or bytes) is left as the operator set it. */
export type ConnectorEventStreamConfig = Pick<StreamConfig, 'name' | 'subjects' | 'retention' | 'storage' | 'max_age' | 'duplicate_window' | 'discard'>;

export interface ConnectorEventStreamSettings {
  /** Stream name; default CONNECTOR_EVENTS. */
  stream?: string;
  /** The subjects' first tokens, default `connectors.events`; the stream takes `<prefix>.>`. */
  subjectPrefix?: string;
  /** How long the stream keeps an event (`max_age`). */
  maxAgeDays: number;
  /** JetStream drops a message whose Nats-Msg-Id it stored within this many seconds (`duplicate_window`); default 120. */
  duplicateWindowS?: number;
}

/** The stream's settings, checked: JetStream refuses a duplicate window longer than the stream keeps messages. */
export function connectorEventStreamConfig(settings: ConnectorEventStreamSettings): ConnectorEventStreamConfig {
  const { stream = DEFAULT_STREAM, subjectPrefix = CONNECTOR_EVENTS_SUBJECT_PREFIX, maxAgeDays, duplicateWindowS = DEFAULT_DUPLICATE_WINDOW_S } = settings;
  if (!(maxAgeDays > 0) || !Number.isFinite(maxAgeDays)) throw new RangeError(`connector events: maxAgeDays must be a positive number, got ${maxAgeDays}`);
  if (!(duplicateWindowS > 0) || !Number.isFinite(duplicateWindowS)) {
    throw new RangeError(`connector events: duplicateWindowS must be a positive number, got ${duplicateWindowS}`);
  }
  const maxAgeMs = Math.round(maxAgeDays * 86_400_000);
  const duplicateWindowMs = Math.round(duplicateWindowS * 1000);
  if (duplicateWindowMs > maxAgeMs)
    throw new RangeError(`connector events: the duplicate window (${duplicateWindowS} s) is longer than maxAgeDays (${maxAgeDays})`);
  return {
    name: stream,
    subjects: [`${subjectPrefix}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(maxAgeMs),
    duplicate_window: nanos(duplicateWindowMs),
    discard: DiscardPolicy.Old,
  };
}

export interface StreamChange {
  field: keyof ConnectorEventStreamConfig;
  from: string;
  to: string;
  /** JetStream cannot change a stream's storage or retention in place. */
  inPlace: boolean;
}

/** Where the stream as it is differs from what it must be, each value as a log line shows it. */
export function streamChanges(current: StreamConfig, wanted: ConnectorEventStreamConfig): StreamChange[] {
  const shown = (field: keyof ConnectorEventStreamConfig, value: unknown): string => {
    if (field === 'max_age' || field === 'duplicate_window') return `${Number(value) / 1e9}s`;
    if (field === 'subjects') return JSON.stringify(value);
    return String(value);
  };
  const fields: (keyof ConnectorEventStreamConfig)[] = ['subjects', 'retention', 'storage', 'max_age', 'duplicate_window', 'discard'];
  return fields
    .filter((field) => (field === 'subjects' ? !sameSet(current.subjects ?? [], wanted.subjects) : current[field] !== wanted[field]))
    .map((field) => ({ field, from: shown(field, current[field]), to: shown(field, wanted[field]), inPlace: field !== 'storage' && field !== 'retention' }));
}

/** JetStream's "stream name already in use": another pod created it between our look and our create. */
const STREAM_NAME_IN_USE = 10058;

/**
 * Creates the stream, or updates the one found where it differs, logging what it changed. A storage or retention
 * that differs cannot be changed in place: that is logged as an error and the stream is used as it is (this service
 * never deletes a stream; an operator recreates it).
 */
export async function ensureConnectorEventStream(
  jsm: JetStreamManager,
  wanted: ConnectorEventStreamConfig,
  logger: Pick<Logger, 'info' | 'error'>,
): Promise<'created' | 'unchanged' | 'updated'> {
  const current = await jsm.streams.info(wanted.name).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return undefined;
    throw error;
  });
  if (!current) {
    const created = await jsm.streams.add(wanted).then(
      () => true,
      (error: unknown) => {
        if (error instanceof JetStreamApiError && error.code === STREAM_NAME_IN_USE) return false;
        throw error;
      },
    );
    if (created) {
      logger.info({ stream: wanted.name, config: wanted }, `connector events: stream ${wanted.name} created`);
      return 'created';
    }
    return ensureConnectorEventStream(jsm, wanted, logger);
  }

  const changes = streamChanges(current.config, wanted);
  const fixed = changes.filter((change) => !change.inPlace);
  if (fixed.length > 0) {
    logger.error(
      { stream: wanted.name, changes: fixed },
      `connector events: stream ${wanted.name} differs where JetStream cannot change a stream in place (${describe(fixed)}); ` +
        'events are published to it as it is: this service never deletes a stream, an operator may recreate it',
    );
  }
  const updates = changes.filter((change) => change.inPlace);
  if (updates.length === 0) return 'unchanged';
  await jsm.streams.update(wanted.name, Object.fromEntries(updates.map(({ field }) => [field, wanted[field]])));
  logger.info({ stream: wanted.name, changes: updates }, `connector events: stream ${wanted.name} updated: ${describe(updates)}`);
  return 'updated';
}

function describe(changes: StreamChange[]): string {
  return changes.map(({ field, from, to }) => `${field} ${from} → ${to}`).join(', ');
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}

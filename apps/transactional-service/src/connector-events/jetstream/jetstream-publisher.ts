import { jetstream, JetStreamClient, jetstreamManager, PubAck } from '@nats-io/jetstream';
import { connect, headers, NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { natsServers, withoutCredentials } from '@app/platform';
import { CLOUDEVENTS_JSON, CONNECTOR_EVENTS_SUBJECT_PREFIX, ConnectorEventPublisher, ConnectorEventRefusedError } from './connector-event-publisher';
import { ConnectorEventStreamConfig, connectorEventStreamConfig, ConnectorEventStreamSettings, ensureConnectorEventStream } from './connector-event-stream';
import { MIN_NATS_SERVER_VERSION, serverVersionProblem } from './nats-server-version';
import { isRefusal } from './publish-refusal';

export interface JetStreamPublisherOptions extends ConnectorEventStreamSettings {
  /** `nats://host:4222`, or several URLs of one cluster separated by commas. */
  url: string;
  /** A publish (and each JetStream API call) not acknowledged within this fails. */
  publishTimeoutMs: number;
  /** Between two attempts to connect, at start and after a loss (the client's own default, 2000). */
  reconnectWaitMs?: number;
  /** The oldest server version published to (default MIN_NATS_SERVER_VERSION); an older one is not used. */
  minServerVersion?: string;
}

export type PublisherLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

/** A publish that failed with the broker's state: not connected, no acknowledgement in time, no stream (`cause`). */
export class ConnectorEventPublishError extends Error {
  override readonly name = 'ConnectorEventPublishError';
}

/** A server that does not complete the handshake in this time counts as unreachable, and is dialled again. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * The client pings every 10 s and drops a connection after two unanswered pings, so a server that vanished without
 * closing the connection (a partition, a stopped VM) shows as 'down' within about 30 s; the client's default, two
 * minutes, kept it 'up' for four.
 */
const PING_INTERVAL_MS = 10_000;
const MAX_PINGS_OUT = 2;
/**
 * What the JetStream client names a publish nobody answered: no stream takes its subject. (The client says "jetstream is
 * not enabled", and does not export that error's class.)
 */
const NO_STREAM = 'JetStreamNotEnabled';

/**
 * Connects in the background and returns at once: the app starts and serves while NATS is down, and the publisher
 * turns 'up' when it has connected and found or created the stream.
 */
export function startJetStreamPublisher(options: JetStreamPublisherOptions, logger: PublisherLogger): JetStreamConnectorEventPublisher {
  const publisher = new JetStreamConnectorEventPublisher(options, logger);
  publisher.start();
  return publisher;
}

/**
 * Publishes connector events to JetStream with @nats-io/transport-node and @nats-io/jetstream, which reconnect for ever
 * by themselves once connected (`maxReconnectAttempts: -1`).
 *
 * What the client does not do, done here:
 * - The first connection. The client's `waitOnFirstConnect` keeps dialling, but its `connect()` hands out no
 *   connection until one succeeds, so nothing could stop it at shutdown; this class dials again itself (every
 *   `reconnectWaitMs`) until the first connection, and `close()` stops it.
 * - Failing fast while disconnected. The client takes a publish while disconnected, queues it and drops the queue at
 *   its next dial, so the publish fails only at its timeout, after the connection is back. Here a publish fails at
 *   once while the status is 'down', and one in flight fails when the connection drops: the relay sees the first
 *   failure and stops. (JetStream's dedup makes a publish that failed but was stored harmless to repeat.)
 * - Finding the stream again. A publish that no stream answers (the stream was deleted while connected) turns the
 *   publisher 'down' until the stream is found or created again, as after a reconnect.
 * - Checking the server's version (its INFO) at each connection: a server older than `minServerVersion` is not used
 *   (an error line names both versions; the publisher stays 'down', as while NATS is unreachable, so the events wait
 *   in the outbox) until a reconnection finds one new enough.
 */
export class JetStreamConnectorEventPublisher implements ConnectorEventPublisher {
  private readonly wanted: ConnectorEventStreamConfig;
  private readonly servers: string[];
  private readonly prefix: string;
  private readonly reconnectWaitMs: number;
  private readonly minServerVersion: string;
  private state: 'up' | 'down' = 'down';
  private nc?: NatsConnection;
  private js?: JetStreamClient;
  /** Bumped at each connection lost: a stream check begun before it does not mark the publisher 'up'. */
  private generation = 0;
  private closing = false;
  private running: Promise<void> = Promise.resolve();
  /** Rejects each publish awaiting its acknowledgement. */
  private readonly inFlight = new Set<(error: Error) => void>();
  /** Ends each pause between two attempts (close() ends them all). */
  private readonly pauses = new Set<() => void>();
  /** Whether the last connection attempt failed and said so: an outage is logged once, not at every attempt. */
  private unreachableLogged = false;
  /** Until the first connection attempt has concluded: connected with the stream ready, or failed and said why. */
  private firstAttemptPending = true;
  /** Why the server connected to is not used (its version), while it is; a publish meanwhile fails saying so. */
  private refusal?: string;

  constructor(
    private readonly options: JetStreamPublisherOptions,
    private readonly logger: PublisherLogger,
  ) {
    if (!(options.publishTimeoutMs > 0)) throw new RangeError(`connector events: publishTimeoutMs must be positive, got ${options.publishTimeoutMs}`);
    this.wanted = connectorEventStreamConfig(options);
    this.servers = natsServers(options.url);
    if (this.servers.length === 0) throw new RangeError('connector events: no NATS URL');
    this.prefix = options.subjectPrefix ?? CONNECTOR_EVENTS_SUBJECT_PREFIX;
    this.reconnectWaitMs = options.reconnectWaitMs ?? 2_000;
    this.minServerVersion = options.minServerVersion ?? MIN_NATS_SERVER_VERSION;
    // A minimum that is no release version fails here, not at the first connection.
    serverVersionProblem(this.minServerVersion, this.minServerVersion);
  }

  /** Begins connecting; the promise close() awaits. */
  start(): void {
    this.running = this.run();
  }

  status(): 'up' | 'down' {
    return this.state;
  }

  connecting(): boolean {
    return this.firstAttemptPending && !this.closing;
  }

  async publish(subject: string, event: object, msgId: string): Promise<{ duplicate: boolean; seq: number }> {
    if (this.closing) throw new ConnectorEventPublishError('connector events: the publisher is closed');
    const js = this.js;
    if (this.state !== 'up' || !js) throw new ConnectorEventPublishError(`connector events: ${this.refusal ?? 'NATS JetStream is not connected'}`);
    if (!subject.startsWith(`${this.prefix}.`)) throw new TypeError(`connector events: ${subject} is not under ${this.prefix}, the stream's subjects`);
    if (msgId === '') throw new TypeError('connector events: a publish needs a message id');
    const contentType = headers();
    contentType.set('content-type', CLOUDEVENTS_JSON);
    const ack = js.publish(subject, JSON.stringify(event), {
      msgID: msgId,
      headers: contentType,
      // Refused rather than stored elsewhere if another stream took the subject.
      expect: { streamName: this.wanted.name },
      timeout: this.options.publishTimeoutMs,
    });
    const { duplicate, seq } = await this.untilAcknowledged(ack, subject);
    return { duplicate, seq };
  }

  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.lost(new ConnectorEventPublishError('connector events: the publisher is closed'));
      for (const wake of this.pauses) wake();
      await this.nc?.close().catch(() => {});
    }
    await this.running;
  }

  /** Connects, keeps the stream checked at each (re)connection, and connects again should the client give up. */
  private async run(): Promise<void> {
    while (!this.closing) {
      const nc = await this.connectOnce();
      if (!nc) {
        await this.pause();
        continue;
      }
      if (this.closing) {
        await nc.close().catch(() => {});
        return;
      }
      this.nc = nc;
      const watching = this.watch(nc);
      void this.prepare(nc);
      const error = await nc.closed();
      await watching;
      this.nc = undefined;
      if (this.closing) return;
      // maxReconnectAttempts is -1, but the client still gives up on a server that refuses the credentials twice.
      this.lost(new ConnectorEventPublishError('connector events: the NATS connection closed'));
      this.logger.error({ err: error ? { message: error.message } : undefined }, 'connector events: the NATS client gave up its connection; connecting again');
    }
  }

  private async connectOnce(): Promise<NatsConnection | undefined> {
    try {
      const nc = await connect({
        servers: this.servers,
        name: 'connector-events',
        maxReconnectAttempts: -1,
        reconnectTimeWait: this.reconnectWaitMs,
        timeout: CONNECT_TIMEOUT_MS,
        pingInterval: PING_INTERVAL_MS,
        maxPingOut: MAX_PINGS_OUT,
        // A captured stack per publish costs CPU at relay rates; the errors name what failed.
        noAsyncTraces: true,
      });
      this.unreachableLogged = false;
      return nc;
    } catch (error) {
      if (!this.unreachableLogged && !this.closing) {
        this.unreachableLogged = true;
        this.logger.warn(
          { nats: this.servers.map(withoutCredentials), err: { message: (error as Error).message } },
          `connector events: NATS is unreachable; events wait in the outbox, connecting again every ${this.reconnectWaitMs} ms`,
        );
      }
      this.firstAttemptPending = false;
      return undefined;
    }
  }

  /** Follows the client's status events: 'down' at a disconnect, the stream checked again at each reconnect. */
  private async watch(nc: NatsConnection): Promise<void> {
    for await (const event of nc.status()) {
      if (event.type === 'disconnect') {
        this.lost(new ConnectorEventPublishError(`connector events: disconnected from NATS at ${event.server}`));
        if (!this.closing) this.logger.warn({ nats: event.server }, 'connector events: disconnected from NATS; events wait in the outbox, reconnecting');
      } else if (event.type === 'reconnect') {
        void this.prepare(nc);
      } else if (event.type === 'error') {
        this.logger.warn({ err: { message: event.error.message } }, 'connector events: the NATS server reported an error');
      }
    }
  }

  /** Checks the server's version, then finds or creates the stream, again until it succeeds while this connection lasts; then 'up'. */
  private async prepare(nc: NatsConnection): Promise<void> {
    const generation = this.generation;
    if (!this.acceptsServer(nc)) return;
    let failureLogged = false;
    while (!this.closing && generation === this.generation && !nc.isClosed()) {
      try {
        const jsm = await jetstreamManager(nc, { timeout: this.options.publishTimeoutMs });
        await ensureConnectorEventStream(jsm, this.wanted, this.logger);
        if (this.closing || generation !== this.generation) return;
        this.js = jetstream(nc, { timeout: this.options.publishTimeoutMs });
        this.state = 'up';
        this.firstAttemptPending = false;
        this.logger.info({ nats: nc.getServer(), stream: this.wanted.name }, `connector events: connected to NATS, publishing to stream ${this.wanted.name}`);
        return;
      } catch (error) {
        if (!failureLogged) {
          failureLogged = true;
          this.logger.warn(
            { stream: this.wanted.name, err: { message: (error as Error).message } },
            `connector events: could not find or create stream ${this.wanted.name}; trying again every ${this.reconnectWaitMs} ms`,
          );
        }
        this.firstAttemptPending = false;
        await this.pause();
      }
    }
  }

  /**
   * Whether the server connected to is recent enough (its INFO, sent again at each reconnection); if not, says so in
   * an error line naming both versions and leaves the publisher 'down', the events in the outbox.
   */
  private acceptsServer(nc: NatsConnection): boolean {
    const version = nc.info?.version;
    const problem = serverVersionProblem(version, this.minServerVersion);
    this.refusal = problem;
    if (problem === undefined) return true;
    this.firstAttemptPending = false;
    this.logger.error(
      { nats: nc.getServer(), version: version ?? null, required: this.minServerVersion },
      `connector events: ${problem}; nothing is published to it, events wait in the outbox (the change feed serves them) until NATS is upgraded`,
    );
    return false;
  }

  /** 'down', and every publish awaiting its acknowledgement fails now rather than at its timeout. */
  private lost(reason: Error): void {
    this.generation++;
    // A connection lost ends the first attempt too (its loss is warned where it is seen): the relay goes on as when down.
    this.firstAttemptPending = false;
    this.refusal = undefined;
    this.state = 'down';
    this.js = undefined;
    for (const reject of this.inFlight) reject(reason);
    this.inFlight.clear();
  }

  private untilAcknowledged(ack: Promise<PubAck>, subject: string): Promise<PubAck> {
    return new Promise((resolve, reject) => {
      this.inFlight.add(reject);
      ack
        .then(resolve, (error: Error) => {
          const failed = isRefusal(error) ? ConnectorEventRefusedError : ConnectorEventPublishError;
          reject(new failed(`connector events: publishing on ${subject} failed: ${error.message}`, { cause: error }));
          if (error.name === NO_STREAM) this.streamGone(subject);
        })
        .finally(() => this.inFlight.delete(reject));
    });
  }

  /** No stream took the subject (deleted by hand, a server with an empty store): 'down' until it is found or created again. */
  private streamGone(subject: string): void {
    const nc = this.nc;
    if (this.closing || this.state !== 'up' || !nc) return;
    this.lost(new ConnectorEventPublishError(`connector events: no stream took ${subject}`));
    this.logger.warn({ stream: this.wanted.name }, `connector events: no stream took ${subject}; checking stream ${this.wanted.name} again`);
    void this.prepare(nc);
  }

  private pause(): Promise<void> {
    if (this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.reconnectWaitMs);
      this.pauses.add(wake);
    });
  }
}

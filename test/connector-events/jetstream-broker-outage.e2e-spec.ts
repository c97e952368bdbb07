import { connectorEventSubject } from '../../apps/transactional-service/src/connector-events/jetstream/connector-event-publisher';
import {
  ConnectorEventPublishError,
  JetStreamConnectorEventPublisher,
  startJetStreamPublisher,
} from '../../apps/transactional-service/src/connector-events/jetstream/jetstream-publisher';
import { randomUUID } from 'node:crypto';
import { aConnectorEvent, collectingLogger, jetStreamAdmin, storedMessages, until } from '../support/connector-events';
import { NatsServer, startNatsServer } from '../support/nats-server';

const STREAM = 'CONNECTOR_EVENTS';

/**
 * The broker cut for real: a private nats-server (its own port and store), killed by its pid and started again on the
 * same port and store. The publisher in each test is the same object from start to end: it recovers by itself.
 */
describe('The JetStream publisher of connector events when the broker goes away', () => {
  let server: NatsServer;
  let publisher: JetStreamConnectorEventPublisher | undefined;

  beforeEach(async () => {
    server = await startNatsServer({ name: 'connector-events' });
  });

  afterEach(async () => {
    await publisher?.close();
    publisher = undefined;
    await server.close();
  });

  const subjectOf = (event: ReturnType<typeof aConnectorEvent>) => connectorEventSubject(randomUUID(), randomUUID(), randomUUID(), event.subject);
  const upAgain = () => until('the publisher to be up', () => publisher!.status() === 'up', 15_000);

  it('starts while NATS is down without blocking or throwing, and turns up when NATS comes', async () => {
    await server.kill();
    const { logger, lines } = collectingLogger();
    publisher = startJetStreamPublisher({ url: server.url, maxAgeDays: 7, publishTimeoutMs: 2_000, reconnectWaitMs: 100 }, logger);

    expect(publisher.status()).toBe('down');
    const event = aConnectorEvent();
    await expect(publisher.publish(subjectOf(event), event, event.id)).rejects.toThrow(
      new ConnectorEventPublishError('connector events: NATS JetStream is not connected'),
    );
    await until('a failed connection attempt to be logged', () => lines.some(({ level }) => level === 40));

    await server.start();
    await upAgain();
    await expect(publisher.publish(subjectOf(event), event, event.id)).resolves.toEqual({ duplicate: false, seq: 1 });
    // The outage is one warning, however many attempts it took.
    expect(lines.filter(({ msg }) => msg.startsWith('connector events: NATS is unreachable'))).toHaveLength(1);
  });

  it('is connecting until its first attempt concludes: while the server holds the handshake, then up once it answers', async () => {
    // Stopped: the kernel accepts the connection, the server sends nothing, so the handshake waits.
    await server.pause();
    const { logger, lines } = collectingLogger();
    publisher = startJetStreamPublisher({ url: server.url, maxAgeDays: 7, publishTimeoutMs: 2_000, reconnectWaitMs: 100 }, logger);
    expect(publisher.connecting()).toBe(true);

    server.resume();
    await upAgain();
    expect(publisher.connecting()).toBe(false);
    expect(lines.filter(({ level }) => level >= 40)).toEqual([]);
  });

  it('ends connecting when its first attempt fails, with the warning that says so', async () => {
    await server.kill();
    const { logger, lines } = collectingLogger();
    publisher = startJetStreamPublisher({ url: server.url, maxAgeDays: 7, publishTimeoutMs: 2_000, reconnectWaitMs: 60_000 }, logger);

    await until('the first attempt to conclude', () => !publisher!.connecting());
    expect(publisher.status()).toBe('down');
    expect(lines.filter(({ level }) => level >= 40).map(({ msg }) => msg)).toEqual([
      'connector events: NATS is unreachable; events wait in the outbox, connecting again every 60000 ms',
    ]);
  });

  it('closes while it is still trying to connect for the first time', async () => {
    await server.kill();
    publisher = startJetStreamPublisher({ url: server.url, maxAgeDays: 7, publishTimeoutMs: 2_000, reconnectWaitMs: 60_000 }, collectingLogger().logger);
    await publisher.close();
    expect(publisher.status()).toBe('down');
  });

  it('fails publishes at once while the broker is killed, and recovers without a new publisher; JetStream keeps each event once', async () => {
    const { logger, lines } = collectingLogger();
    publisher = startJetStreamPublisher({ url: server.url, maxAgeDays: 7, publishTimeoutMs: 2_000, reconnectWaitMs: 100 }, logger);
    await upAgain();
    const stored = aConnectorEvent();
    await expect(publisher.publish(subjectOf(stored), stored, stored.id)).resolves.toEqual({ duplicate: false, seq: 1 });

    // A server that answers nothing: the publish fails at its timeout, never hangs.
    await server.pause();
    const unanswered = aConnectorEvent();
    const timedOut = await publisher.publish(subjectOf(unanswered), unanswered, unanswered.id).catch((error: Error) => error);
    expect(timedOut).toBeInstanceOf(ConnectorEventPublishError);
    expect((timedOut as Error).message).toMatch(/^connector events: publishing on connectors\.events\.[\w.-]+ failed: timeout/);

    // Killed with a publish in flight: that publish fails when the connection drops, not at its timeout.
    const inFlight = aConnectorEvent();
    const cut = publisher.publish(subjectOf(inFlight), inFlight, inFlight.id).catch((error: Error) => error);
    await server.kill();
    expect(await cut).toEqual(new ConnectorEventPublishError(`connector events: disconnected from NATS at 127.0.0.1:${server.port}`));
    expect(publisher.status()).toBe('down');

    // While it is down, a publish fails at once, without reaching the client's queue.
    const whileDown = aConnectorEvent();
    await expect(publisher.publish(subjectOf(whileDown), whileDown, whileDown.id)).rejects.toThrow(
      new ConnectorEventPublishError('connector events: NATS JetStream is not connected'),
    );

    // Back on the same port and store: the same publisher turns up, finds the stream, and JetStream's dedup holds.
    await server.start();
    await upAgain();
    await expect(publisher.publish(subjectOf(stored), stored, stored.id)).resolves.toEqual({ duplicate: true, seq: 1 });
    const after = aConnectorEvent();
    const { seq } = await publisher.publish(subjectOf(after), after, after.id);
    await expect(publisher.publish(subjectOf(after), after, after.id)).resolves.toEqual({ duplicate: true, seq });

    const admin = await jetStreamAdmin(server.url);
    try {
      const ids = (await storedMessages(admin.jsm, STREAM)).map(({ msgId }) => msgId);
      expect(ids.filter((id) => id === stored.id)).toHaveLength(1);
      expect(ids.filter((id) => id === after.id)).toHaveLength(1);
    } finally {
      await admin.close();
    }
    const messages = lines.map(({ msg }) => msg);
    expect(messages).toContain('connector events: disconnected from NATS; events wait in the outbox, reconnecting');
    expect(messages.filter((msg) => msg === `connector events: connected to NATS, publishing to stream ${STREAM}`)).toHaveLength(2);
  });
});

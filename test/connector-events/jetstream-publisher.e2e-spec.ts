import { connectorEventSubject } from '../../apps/transactional-service/src/connector-events/jetstream/connector-event-publisher';
import {
  ConnectorEventPublishError,
  JetStreamConnectorEventPublisher,
  JetStreamPublisherOptions,
  startJetStreamPublisher,
} from '../../apps/transactional-service/src/connector-events/jetstream/jetstream-publisher';
import { DiscardPolicy, JetStreamManager, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { aConnectorEvent, collectingLogger, jetStreamAdmin, serverVersion, storedMessages, until } from '../support/connector-events';
import { TEST_NATS_URL } from '../support/nats-server';

const DAY_NS = 86_400 * 1e9;

/**
 * The publisher against the machine's NATS server (TEST_NATS_URL). Each test has a stream and a subject prefix of its
 * own, so that runs in parallel, and the app's own stream, never collide; a test deletes only the streams it made.
 */
describe('The JetStream publisher of connector events (shared NATS server)', () => {
  let admin: { jsm: JetStreamManager; close(): Promise<void> };
  const publishers: JetStreamConnectorEventPublisher[] = [];
  const streams: string[] = [];

  beforeAll(async () => {
    admin = await jetStreamAdmin(TEST_NATS_URL).catch((error) => {
      throw new Error(`These tests need NATS with JetStream at ${TEST_NATS_URL} (set TEST_NATS_URL to change it; .ci/run starts it): ${error}`, {
        cause: error,
      });
    });
  });

  afterEach(async () => {
    await Promise.all(publishers.splice(0).map((publisher) => publisher.close()));
    for (const stream of streams.splice(0)) await admin.jsm.streams.delete(stream).catch(() => {});
  });

  afterAll(() => admin?.close());

  /** A stream name and subject prefix no other test uses; the stream is deleted after the test. */
  function ownStream() {
    const tag = randomUUID().replace(/-/g, '').slice(0, 12);
    const names = { stream: `TEST_CONNECTOR_EVENTS_${tag}`, subjectPrefix: `test.connector-events.${tag}` };
    streams.push(names.stream);
    return names;
  }

  function start(options: Partial<JetStreamPublisherOptions> = {}) {
    const names = ownStream();
    const { logger, lines } = collectingLogger();
    const publisher = startJetStreamPublisher({ url: TEST_NATS_URL, ...names, maxAgeDays: 7, publishTimeoutMs: 5_000, ...options }, logger);
    publishers.push(publisher);
    return { publisher, lines, ...names };
  }

  const upOf = (publisher: JetStreamConnectorEventPublisher) => until('the publisher to be up', () => publisher.status() === 'up');

  it('creates the stream at first connect, with the settings the docs give, and says so', async () => {
    const names = ownStream();
    const { logger, lines } = collectingLogger();
    const publisher = startJetStreamPublisher({ url: TEST_NATS_URL, ...names, maxAgeDays: 7, duplicateWindowS: 90, publishTimeoutMs: 5_000 }, logger);
    publishers.push(publisher);
    await upOf(publisher);

    const { config } = await admin.jsm.streams.info(names.stream);
    expect(config).toMatchObject({
      name: names.stream,
      subjects: [`${names.subjectPrefix}.>`],
      retention: 'limits',
      storage: 'file',
      max_age: 7 * DAY_NS,
      duplicate_window: 90 * 1e9,
      discard: 'old',
    });
    expect(lines.map(({ msg }) => msg)).toContain(`connector events: stream ${names.stream} created`);
  });

  it('publishes a structured CloudEvent with its Nats-Msg-Id and content type, and JetStream keeps a re-publish once', async () => {
    const { publisher, stream, subjectPrefix } = start();
    await upOf(publisher);
    const event = aConnectorEvent();
    const subject = connectorEventSubject(randomUUID(), randomUUID(), randomUUID(), event.subject, subjectPrefix);

    const first = await publisher.publish(subject, event, event.id);
    const again = await publisher.publish(subject, event, event.id);

    expect(first).toEqual({ duplicate: false, seq: 1 });
    expect(again).toEqual({ duplicate: true, seq: 1 });
    expect(await storedMessages(admin.jsm, stream)).toEqual([{ seq: 1, subject, msgId: event.id, contentType: 'application/cloudevents+json', json: event }]);
  });

  it('updates a stream found with other settings, says what it changed, and keeps what the stream holds', async () => {
    const names = ownStream();
    await admin.jsm.streams.add({
      name: names.stream,
      subjects: [`${names.subjectPrefix}.*`],
      storage: StorageType.File,
      max_age: nanos(86_400_000),
      duplicate_window: nanos(10_000),
      discard: DiscardPolicy.New,
    });
    const js = admin.jsm.jetstream();
    await js.publish(`${names.subjectPrefix}.before`, '{}', { msgID: 'before' });

    const { logger, lines } = collectingLogger();
    const publisher = startJetStreamPublisher({ url: TEST_NATS_URL, ...names, maxAgeDays: 7, publishTimeoutMs: 5_000 }, logger);
    publishers.push(publisher);
    await upOf(publisher);

    const { config, state } = await admin.jsm.streams.info(names.stream);
    expect(config).toMatchObject({ subjects: [`${names.subjectPrefix}.>`], max_age: 7 * DAY_NS, duplicate_window: 120 * 1e9, discard: 'old' });
    expect(state.messages).toBe(1);
    expect(lines.map(({ msg }) => msg)).toContain(
      `connector events: stream ${names.stream} updated: subjects ["${names.subjectPrefix}.*"] → ["${names.subjectPrefix}.>"], max_age 86400s → 604800s, ` +
        'duplicate_window 10s → 120s, discard new → old',
    );
  });

  it('uses a stream whose storage JetStream cannot change in place, never deletes it, and logs an error saying so', async () => {
    const names = ownStream();
    await admin.jsm.streams.add({ name: names.stream, subjects: [`${names.subjectPrefix}.>`], storage: StorageType.Memory, max_age: nanos(7 * 86_400_000) });
    await admin.jsm.jetstream().publish(`${names.subjectPrefix}.before`, '{}');

    const { logger, lines } = collectingLogger();
    const publisher = startJetStreamPublisher({ url: TEST_NATS_URL, ...names, maxAgeDays: 7, publishTimeoutMs: 5_000 }, logger);
    publishers.push(publisher);
    await upOf(publisher);
    const event = aConnectorEvent();
    await expect(publisher.publish(`${names.subjectPrefix}.a.b.c.d`, event, event.id)).resolves.toEqual({ duplicate: false, seq: 2 });

    const { config } = await admin.jsm.streams.info(names.stream);
    expect(config.storage).toBe('memory');
    const error = lines.find(({ level }) => level === 50);
    expect(error?.msg).toMatch(
      new RegExp(`^connector events: stream ${names.stream} differs where JetStream cannot change a stream in place \\(storage memory → file\\)`),
    );
  });

  it('creates the stream again when it was deleted while connected, turning down until then', async () => {
    const { publisher, stream, subjectPrefix, lines } = start();
    await upOf(publisher);
    await admin.jsm.streams.delete(stream);

    const event = aConnectorEvent();
    const subject = connectorEventSubject(randomUUID(), randomUUID(), randomUUID(), event.subject, subjectPrefix);
    await expect(publisher.publish(subject, event, event.id)).rejects.toThrow(`connector events: publishing on ${subject} failed: jetstream is not enabled`);
    await until('the stream to be created again', () => lines.filter(({ msg }) => msg === `connector events: stream ${stream} created`).length === 2);
    await upOf(publisher);
    await expect(publisher.publish(subject, event, event.id)).resolves.toEqual({ duplicate: false, seq: 1 });
    expect(lines.map(({ msg }) => msg)).toContain(`connector events: no stream took ${subject}; checking stream ${stream} again`);
  });

  it('does not use a server older than its minimum: an error line names both versions, no stream is made, publishes fail saying why', async () => {
    // Above any server this machine has: the running one is "too old" without another binary.
    const required = '99.0.0';
    const found = await serverVersion(TEST_NATS_URL);
    const { publisher, lines, stream, subjectPrefix } = start({ minServerVersion: required });

    await until('the first attempt to conclude', () => !publisher.connecting());
    expect(publisher.status()).toBe('down');
    const problem = `the NATS server is version ${found}; this service needs ${required} or later`;
    expect(lines.filter(({ level }) => level >= 40)).toEqual([
      expect.objectContaining({
        level: 50,
        version: found,
        required,
        msg: `connector events: ${problem}; nothing is published to it, events wait in the outbox (the change feed serves them) until NATS is upgraded`,
      }),
    ]);
    await expect(admin.jsm.streams.info(stream)).rejects.toThrow('stream not found');
    const event = aConnectorEvent();
    await expect(publisher.publish(`${subjectPrefix}.a.b.c.d`, event, event.id)).rejects.toThrow(
      new ConnectorEventPublishError(`connector events: ${problem}`),
    );
  });

  it('uses a server at its minimum', async () => {
    const { publisher } = start({ minServerVersion: await serverVersion(TEST_NATS_URL) });
    await upOf(publisher);
  });

  it('refuses a subject outside its stream before sending it', async () => {
    const { publisher } = start();
    await upOf(publisher);
    const event = aConnectorEvent();
    await expect(publisher.publish('connectors.events.a.b.c.d', event, event.id)).rejects.toThrow(
      /is not under test\.connector-events\.\w+, the stream's subjects/,
    );
  });

  it('refuses to publish once closed', async () => {
    const { publisher } = start();
    await upOf(publisher);
    await publisher.close();
    const event = aConnectorEvent();
    expect(publisher.status()).toBe('down');
    await expect(publisher.publish(`test.x.a.b.c.d`, event, event.id)).rejects.toThrow(
      new ConnectorEventPublishError('connector events: the publisher is closed'),
    );
  });
});

import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { parseServerUrl } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { connectorEventValidator } from '../support/asyncapi';
import { seedTenant, Tenant } from '../support/fixtures';
import { NatsServer, startNatsServer, TEST_NATS_URL } from '../support/nats-server';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { FeedConsumer, FeedEvent } from './feed-consumer';
import { relayTiming } from './relay-timing';

interface StreamMessage {
  subject: string;
  msgId: string | undefined;
  contentType: string | undefined;
  event: FeedEvent['event'];
}

/** Every message of the stream, in stream order (an ordered consumer from the first). */
async function streamMessages(connection: NatsConnection, stream: string): Promise<StreamMessage[]> {
  const js = jetstream(connection);
  const { state } = await (await jetstreamManager(connection)).streams.info(stream);
  if (state.messages === 0) return [];
  const consumer = await js.consumers.get(stream);
  const messages: StreamMessage[] = [];
  for (let seq = state.first_seq; messages.length < state.messages; seq++) {
    const message = await consumer.next({ expires: 5_000 });
    if (!message) throw new Error(`the stream ${stream} gave ${messages.length} of ${state.messages} messages`);
    messages.push({
      subject: message.subject,
      msgId: message.headers?.get('Nats-Msg-Id'),
      contentType: message.headers?.get('content-type'),
      event: message.json(),
    });
  }
  return messages;
}

async function eventually(check: () => Promise<boolean>, what: string, rounds = 300): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

/** Per connector: the versions in stream order, and whether any event came twice. */
function orderProblems(messages: StreamMessage[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const last = new Map<string, number>();
  for (const { event } of messages) {
    if (seen.has(event.id)) problems.push(`${event.id} twice`);
    seen.add(event.id);
    const previous = last.get(event.subject) ?? 0;
    if (event.data.version !== previous + 1) problems.push(`${event.subject}: version ${event.data.version} after ${previous}`);
    last.set(event.subject, event.data.version);
  }
  return problems;
}

describe('Connector change events on NATS JetStream (MariaDB, NATS)', () => {
  let database: string;
  let url: string;
  let token: string;

  beforeAll(async () => {
    database = uniqueDatabaseName('platform_jetstream');
    url = await createMigratedDatabase(database);
    token = await signToken(ALICE);
  });
  afterAll(() => dropDatabase(database));

  /** The transactional service on the suite's database, publishing to `natsUrl` on a stream and subjects of its own. */
  const startApp = (natsUrl: string, stream: string, subjectPrefix: string) =>
    startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      mysqlTestConfig({ database: parseServerUrl(url), changeEvents: { natsUrl, stream, retentionDays: 7, subjectPrefix } }),
      { providers: [relayTiming({ backoffMs: 50, maxBackoffMs: 500, followerMs: 100 })] },
    );
  const feedPathOf = (tenant: Tenant) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;

  describe("on this machine's NATS server", () => {
    const stream = `TEST_EVENTS_${randomUUID().slice(0, 8)}`;
    const prefix = `test.${stream.toLowerCase()}`;
    let sut: TestApp;
    let nats: NatsConnection;

    beforeAll(async () => {
      sut = await startApp(TEST_NATS_URL, stream, prefix);
      nats = await connect({ servers: TEST_NATS_URL });
    });
    afterAll(async () => {
      await sut.close();
      await (await jetstreamManager(nats)).streams.delete(stream).catch(() => undefined);
      await nats.close();
    });

    it('publishes every event once, with its id as Nats-Msg-Id, on a subject carrying org, env, bot and connector, as the feed and the AsyncAPI document say', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
      const uuid = await createConnector(sut, tenant, token);
      await sut.http
        .put(`${tenantPath(tenant)}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'Renamed' }))
        .expect(200);
      await sut.http
        .delete(`${tenantPath(tenant)}/${uuid}`)
        .set(bearer(token))
        .expect(204);
      const fed = await consumer.until(3);

      await eventually(async () => (await streamMessages(nats, stream)).length >= 3, 'three messages on the stream');
      const messages = await streamMessages(nats, stream);
      expect(messages.map(({ event }) => event)).toEqual(fed.map(({ event }) => event));
      expect(messages.map(({ subject }) => subject)).toEqual(
        Array(3).fill(`${prefix}.${tenant.organization.uuid}.${tenant.environment.uuid}.${tenant.bot.uuid}.${uuid}`),
      );
      expect(messages.map(({ msgId }) => msgId)).toEqual(fed.map(({ event }) => event.id));
      expect(messages.every(({ contentType }) => contentType === 'application/cloudevents+json')).toBe(true);
      const validate = await connectorEventValidator();
      for (const { event } of messages) expect(validate(event) ? [] : validate.errors).toEqual([]);

      const ready = await sut.http.get('/health/ready').expect(200);
      expect(ready.body.checks.nats).toBe('up');
      const metrics = (await sut.http.get('/metrics').expect(200)).text;
      expect(Number(/^connector_events_published_total(?:\{[^}]*\})? (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);
    });

    it('publishes an event again after a relay that died between the publish and its mark, and JetStream keeps it once', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
      const before = (await streamMessages(nats, stream)).length;
      await createConnector(sut, tenant, token);
      await createConnector(sut, tenant, token);
      const fed = await consumer.until(2);
      await eventually(async () => (await streamMessages(nats, stream)).length === before + 2, 'both on the stream');

      // What a relay killed after its publishes and before its mark leaves: the mark behind what JetStream holds.
      const [{ published }] = await sut.dataSource.query('SELECT published_through AS published FROM connector_event_relay WHERE id = 1');
      await sut.dataSource.query('UPDATE connector_event_relay SET published_through = ? WHERE id = 1', [Number(fed[0].cursor) - 1]);
      await eventually(
        async () => Number((await sut.dataSource.query('SELECT published_through AS p FROM connector_event_relay WHERE id = 1'))[0].p) >= Number(published),
        'the relay published them again and marked them',
      );

      const messages = await streamMessages(nats, stream);
      expect(messages).toHaveLength(before + 2);
      expect(orderProblems(messages)).toEqual([]);
    });
  });

  describe('when the broker is killed (a private nats-server)', () => {
    let server: NatsServer;
    let sut: TestApp;
    let nats: NatsConnection | undefined;
    const stream = 'CONNECTOR_EVENTS';

    beforeAll(async () => {
      server = await startNatsServer({ name: 'relay-outage' });
      sut = await startApp(server.url, stream, 'connectors.events');
    });
    afterAll(async () => {
      await nats?.close().catch(() => undefined);
      await sut.close();
      await server.close();
    });

    it('keeps writing (never refused), grows the outbox, and drains it in order, each event once, when the broker returns, without a restart', async () => {
      const tenant = await seedTenant(sut.dataSource);
      await eventually(async () => (await sut.http.get('/health/ready')).body.checks?.nats === 'up', 'the publisher connected');
      const shared = await createConnector(sut, tenant, token);
      nats = await connect({ servers: server.url });
      await eventually(async () => (await streamMessages(nats!, stream)).length >= 1, 'the first event on the stream');
      await nats.close();
      nats = undefined;

      await server.kill();
      await eventually(async () => (await sut.http.get('/health/ready').expect(200)).body.checks.nats === 'down', 'nats down in readiness');
      // Writes while the broker is gone: every one succeeds.
      const during = await Promise.all([
        ...Array.from({ length: 10 }, (_, n) =>
          sut.http
            .put(`${tenantPath(tenant)}/${shared}`)
            .set(bearer(token))
            .send(aConnectorBody({ name: 'Shared', description: `during ${n}` })),
        ),
        ...Array.from({ length: 10 }, () => sut.http.post(tenantPath(tenant)).set(bearer(token)).send(aConnectorBody())),
      ]);
      expect(during.every((res) => res.status === 200 || res.status === 201 || res.status === 409)).toBe(true);
      const written = 1 + during.filter((res) => res.status === 200 || res.status === 201).length;
      const [{ waiting }] = await sut.dataSource.query(
        'SELECT COUNT(*) AS waiting FROM connector_events e JOIN connector_event_relay r ON r.id = 1 WHERE e.position IS NULL OR e.position > r.published_through',
      );
      expect(Number(waiting)).toBeGreaterThanOrEqual(written - 1);
      const metrics = (await sut.http.get('/metrics').expect(200)).text;
      expect(Number(/^connector_events_publish_failures_total(?:\{[^}]*\})? (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);

      await server.start();
      nats = await connect({ servers: server.url });
      await eventually(async () => (await streamMessages(nats!, stream)).length >= written, 'the outbox drained to the stream', 600);
      const messages = await streamMessages(nats, stream);
      expect(messages).toHaveLength(written);
      expect(orderProblems(messages)).toEqual([]);
      expect((await sut.http.get('/health/ready').expect(200)).body.checks.nats).toBe('up');
    });
  });
});

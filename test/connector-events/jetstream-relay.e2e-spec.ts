import { parseServerUrl } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { connectorEventValidator } from '../support/asyncapi';
import { jetStreamAdmin, storedMessages, until } from '../support/connector-events';
import { seedTenant, Tenant } from '../support/fixtures';
import { NatsServer, startNatsServer, TEST_NATS_URL } from '../support/nats-server';
import { mysqlTestConfig } from '../support/test-config';
import { metricOf, startTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { FeedConsumer, FeedEvent, positionOf } from './feed-consumer';
import { relayTiming } from './relay-timing';
import { EVENT_READS_IN_FLIGHT_BYTES, EventReads } from '../../apps/transactional-service/src/connector-events/event-reads';

type Admin = Awaited<ReturnType<typeof jetStreamAdmin>>;

/** Every message of the stream, oldest first, each with its event. */
async function streamMessages(admin: Admin, stream: string) {
  return (await storedMessages(admin.jsm, stream)).map((message) => ({ ...message, event: message.json as FeedEvent['event'] }));
}

/** Per connector: the versions in stream order, and whether any event came twice. */
function orderProblems(messages: Array<{ event: FeedEvent['event'] }>): string[] {
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
      mysqlTestConfig({ database: parseServerUrl(url), changeEvents: { natsUrl, stream, retentionDays: 7, maxPublishAttempts: 5, subjectPrefix } }),
      { providers: [relayTiming({ backoffMs: 50, maxBackoffMs: 500, followerMs: 100 })] },
    );
  const feedPathOf = (tenant: Tenant) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;

  describe("on this machine's NATS server", () => {
    const stream = `TEST_EVENTS_${randomUUID().slice(0, 8)}`;
    const prefix = `test.${stream.toLowerCase()}`;
    let sut: TestApp;
    let nats: Admin;

    beforeAll(async () => {
      sut = await startApp(TEST_NATS_URL, stream, prefix);
      nats = await jetStreamAdmin(TEST_NATS_URL);
    });
    afterAll(async () => {
      await sut.close();
      await nats.jsm.streams.delete(stream).catch(() => undefined);
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

      await until('three messages on the stream', async () => (await streamMessages(nats, stream)).length >= 3, 30_000);
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
      expect(await metricOf(sut, 'connector_events_published_total')).toBeGreaterThanOrEqual(3);
    });

    it('publishes while pages of the feed hold every byte of its reads in flight (callers that never read their large pages)', async () => {
      const tenant = await seedTenant(sut.dataSource);
      // What three such pages hold, each until its answer has left (at most FEED_SEND_MS): the whole of the feed's budget.
      const pages = await sut.app
        .get(EventReads)
        .read({ sizes: async () => [{ position: 1, bytes: EVENT_READS_IN_FLIGHT_BYTES }], events: async () => [] }, { after: 0, through: 1, limit: 1 });
      try {
        const uuid = await createConnector(sut, tenant, token);

        await until(
          'its event on the stream while the pages are held',
          async () => (await streamMessages(nats, stream)).some(({ event }) => event.subject === uuid),
          30_000,
        );
      } finally {
        pages.release();
      }
    });

    it('publishes an event again after a relay that died between the publish and its mark, and JetStream keeps it once', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
      const before = (await streamMessages(nats, stream)).length;
      await createConnector(sut, tenant, token);
      await createConnector(sut, tenant, token);
      const fed = await consumer.until(2);
      await until('both on the stream', async () => (await streamMessages(nats, stream)).length === before + 2, 30_000);

      // What a relay killed after its publishes and before its mark leaves: the mark behind what JetStream holds.
      const [{ published }] = await sut.dataSource.query('SELECT published_through AS published FROM connector_event_relay WHERE id = 1');
      await sut.dataSource.query('UPDATE connector_event_relay SET published_through = ? WHERE id = 1', [(await positionOf(sut, fed[0])) - 1]);
      await until(
        'the relay published them again and marked them',
        async () => Number((await sut.dataSource.query('SELECT published_through AS p FROM connector_event_relay WHERE id = 1'))[0].p) >= Number(published),
        30_000,
      );

      const messages = await streamMessages(nats, stream);
      expect(messages).toHaveLength(before + 2);
      expect(orderProblems(messages)).toEqual([]);
    });
  });

  describe('when the broker is killed (a private nats-server)', () => {
    let server: NatsServer;
    let sut: TestApp;
    let nats: Admin | undefined;
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
      await until('the publisher connected', async () => (await sut.http.get('/health/ready')).body.checks?.nats === 'up', 30_000);
      const shared = await createConnector(sut, tenant, token);
      nats = await jetStreamAdmin(server.url);
      await until('the first event on the stream', async () => (await streamMessages(nats!, stream)).length >= 1, 30_000);
      await nats.close();
      nats = undefined;

      await server.kill();
      await until('nats down in readiness', async () => (await sut.http.get('/health/ready').expect(200)).body.checks.nats === 'down', 30_000);
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
      // The relay tries the waiting events and counts the failure (it may not have tried yet when the writes answer).
      await until('a failed publish counted', async () => (await metricOf(sut, 'connector_events_publish_failures_total')) > 0, 30_000);

      await server.start();
      nats = await jetStreamAdmin(server.url);
      // This tenant's events only: the database's events of the tests above that their apps had not yet published
      // when they closed are published here too, as a relay taking over would.
      const ours = async () =>
        (await streamMessages(nats!, stream)).filter(({ subject }) => subject.startsWith(`connectors.events.${tenant.organization.uuid}.`));
      await until('the outbox drained to the stream', async () => (await ours()).length >= written, 60_000);
      const messages = await ours();
      expect(messages).toHaveLength(written);
      expect(orderProblems(messages)).toEqual([]);
      expect((await sut.http.get('/health/ready').expect(200)).body.checks.nats).toBe('up');
    });
  });
});

import { parseServerUrl } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { jetStreamAdmin, storedMessages, until } from '../support/connector-events';
import { seedTenant, Tenant } from '../support/fixtures';
import { NatsServer, startNatsServer } from '../support/nats-server';
import { runCli } from '../support/run-command';
import { mysqlTestConfig } from '../support/test-config';
import { metricOf, startTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { FeedEvent } from './feed-consumer';
import { relayTiming } from './relay-timing';

const STREAM = 'CONNECTOR_EVENTS';
const MAX_ATTEMPTS = 3;
/** The stream's max_msg_size while the test refuses the large event: every other event here is far smaller. */
const MAX_MSG_SIZE = 16 * 1024;

interface OutboxRow {
  event_uuid: string;
  version: number;
  publish_attempts: number;
  publish_error: string | null;
  held: number;
  parked: number;
}

/**
 * An event JetStream refuses for good, for real: a private nats-server whose stream takes no message above
 * MAX_MSG_SIZE, and one connector's event above it. It is parked after MAX_ATTEMPTS refusals, its connector's later
 * events are held behind it while another connector's go on, the gauges say so, and the replay command publishes them
 * all, in order, once the stream takes them.
 */
describe('Parked change events (MariaDB, a private nats-server)', () => {
  let database: string;
  let url: string;
  let token: string;
  let server: NatsServer;
  let sut: TestApp;
  let admin: Awaited<ReturnType<typeof jetStreamAdmin>>;

  beforeAll(async () => {
    database = uniqueDatabaseName('outbox_parked');
    url = await createMigratedDatabase(database);
    token = await signToken(ALICE);
    server = await startNatsServer({ name: 'parked-events' });
    sut = await startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      mysqlTestConfig({
        database: parseServerUrl(url),
        changeEvents: { natsUrl: server.url, stream: STREAM, retentionDays: 7, maxPublishAttempts: MAX_ATTEMPTS },
      }),
      { providers: [relayTiming({ backoffMs: 50, maxBackoffMs: 200, resyncMs: 500 })] },
    );
    admin = await jetStreamAdmin(server.url);
  });
  afterAll(async () => {
    await admin?.close();
    await sut?.close();
    await server?.close();
    await dropDatabase(database);
  });

  /** The versions of `connector` on the stream, in stream order. */
  const onStream = async (connector: string) =>
    (await storedMessages(admin.jsm, STREAM))
      .map(({ json }) => json as FeedEvent['event'])
      .filter(({ subject }) => subject === connector)
      .map(({ data }) => data.version);
  const outboxOf = async (connector: string): Promise<OutboxRow[]> =>
    (
      await sut.dataSource.query(
        'SELECT event_uuid, version, publish_attempts, publish_error, held_at IS NOT NULL AS held, parked_at IS NOT NULL AS parked FROM connector_events WHERE connector_uuid = ? ORDER BY position',
        [connector],
      )
    ).map((row: OutboxRow) => ({
      ...row,
      version: Number(row.version),
      publish_attempts: Number(row.publish_attempts),
      held: Number(row.held),
      parked: Number(row.parked),
    }));
  const update = async (tenant: Tenant, uuid: string, name: string, description: string) => {
    const res = await sut.http
      .put(`${tenantPath(tenant)}/${uuid}`)
      .set(bearer(token))
      .send(aConnectorBody({ name, description }));
    expect({ status: res.status, body: res.status === 200 ? {} : res.body }).toEqual({ status: 200, body: {} });
  };
  /** The parked and held gauges of one scrape. */
  const setAside = async () => {
    const text = (await sut.http.get('/metrics').expect(200)).text;
    const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
    return { parked: gauge('connector_events_parked'), held: gauge('connector_events_held') };
  };
  const replay = (...args: string[]) => runCli(['events:replay', ...args], { DATABASE_URL: url });

  it('parks the refused event, holds its connector behind it while another connector flows, counts it, and publishes all in order after a replay', async () => {
    await until('the publisher connected', async () => (await sut.http.get('/health/ready')).body.checks?.nats === 'up', 30_000);
    await admin.jsm.streams.update(STREAM, { max_msg_size: MAX_MSG_SIZE });
    const tenant = await seedTenant(sut.dataSource);

    // Connector A's first event is above the stream's max_msg_size: JetStream answers an error for that message.
    const a = await createConnector(
      sut,
      tenant,
      token,
      aConnectorBody({ name: 'Large', requestType: 'POST', contentType: 'TEXT_PLAIN', body: 'x'.repeat(2 * MAX_MSG_SIZE) }),
    );
    await update(tenant, a, 'Large', 'small again');
    const b = await createConnector(sut, tenant, token, aConnectorBody({ name: 'Other' }));
    await update(tenant, b, 'Other', 'second');

    await until('A parked and its later event held', async () => (await outboxOf(a)).map(({ held }) => held).join() === '1,1', 30_000);
    const [parked, held] = await outboxOf(a);
    expect(parked).toMatchObject({ version: 1, publish_attempts: MAX_ATTEMPTS, parked: 1, held: 1 });
    expect(parked.publish_error).toMatch(/message size exceeds maximum allowed/);
    expect(held).toMatchObject({ version: 2, publish_attempts: 0, parked: 0, held: 1 });

    // Writes after the parking: B's go on, A's wait behind its parked event.
    await update(tenant, a, 'Large', 'third');
    await update(tenant, b, 'Other', 'third');
    await until("B's three events on the stream", async () => (await onStream(b)).length === 3, 30_000);
    expect(await onStream(b)).toEqual([1, 2, 3]);
    await until("A's third event held", async () => (await outboxOf(a)).length === 3 && (await outboxOf(a))[2].held === 1, 30_000);
    expect(await onStream(a)).toEqual([]);
    expect(await setAside()).toEqual({ parked: 1, held: 2 });
    expect(await metricOf(sut, 'connector_events_parked_total')).toBe(1);

    // An event that is not parked is no replay.
    const notParked = await replay('--event', held.event_uuid);
    expect({ code: notParked.code, stderr: notParked.stderr.trim() }).toEqual({ code: 1, stderr: `Event ${held.event_uuid} is not parked: nothing to replay` });

    // The cause removed, the documented step: A's three events go, in order, and nothing stays set aside.
    await admin.jsm.streams.update(STREAM, { max_msg_size: -1 });
    const replayed = await replay('--event', parked.event_uuid);
    expect({ code: replayed.code, stderr: replayed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(replayed.stdout).toContain('Released 1 parked event(s)');
    await until("A's events on the stream", async () => (await onStream(a)).length === 3, 30_000);
    expect(await onStream(a)).toEqual([1, 2, 3]);
    await until('nothing held', async () => (await outboxOf(a)).every(({ held: isHeld }) => isHeld === 0), 30_000);
    expect(await setAside()).toEqual({ parked: 0, held: 0 });

    // And A's next event goes at once again, after them.
    await update(tenant, a, 'Large', 'fourth');
    await until("A's fourth event on the stream", async () => (await onStream(a)).length === 4, 30_000);
    expect(await onStream(a)).toEqual([1, 2, 3, 4]);
  }, 180_000);
});

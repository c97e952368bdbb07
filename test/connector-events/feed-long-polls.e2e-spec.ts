import { ConnectorEventRepository } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { AddressInfo } from 'node:net';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ALICE, createConnector } from '../rest-connectors/connector-factories';
import { until } from '../support/connector-events';
import { aBot, anEnvironment, anOrganization, importData, Tenant } from '../support/fixtures';
import { openRaw } from '../support/raw-http';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { metricOf, startTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';
import { PAUSED_RELAY } from './relay-timing';

const feedPathOf = (orgUUID: string, envUUID: string) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${orgUUID}/env/${envUUID}/connector-events`;

/** An organization with three environments: A with the bots a1 and a2, B with b1, C with c1. */
async function threeEnvironments(dataSource: TestApp['dataSource']) {
  const organization = anOrganization();
  const [A, B, C] = [anEnvironment(organization.uuid), anEnvironment(organization.uuid), anEnvironment(organization.uuid)];
  const [a1, a2, b1, c1] = [aBot(A.uuid), aBot(A.uuid), aBot(B.uuid), aBot(C.uuid)];
  await importData(dataSource, { organizations: [organization], environments: [A, B, C], bots: [a1, a2, b1, c1] });
  const at = (environment: typeof A, bot: typeof a1): Tenant => ({ organization, environment, bot });
  return { organization, A, B, C, a1: at(A, a1), a2: at(A, a2), b1: at(B, b1), c1: at(C, c1) };
}

type Answer = { status: number; body: { events: Array<{ event: { subject: string } }>; cursor: string } };

/**
 * Long polls in `host` across environments and bots; writes through `writer`. Each write wakes the waiters of its
 * environment and bot only: they read their feed once and answer its event, while the others wait on without a
 * feed statement; in the end every waiter has had its event.
 */
async function wakesOnlyTheWaitersOfEventsScopes(host: TestApp, writer: TestApp, token: string): Promise<void> {
  const { organization, A, B, C, a1, a2, b1, c1 } = await threeEnvironments(writer.dataSource);
  const repository = host.app.get(ConnectorEventRepository);
  const feedScopes = jest.spyOn(repository, 'feed');
  const wakeUps = jest.spyOn(repository, 'numberedScopes');
  const waiting = () => metricOf(host, 'connector_event_feed_waiting');
  const poll = (envUUID: string, botUUID?: string) =>
    host.http
      .get(feedPathOf(organization.uuid, envUUID))
      .query({ after: 'now', wait: 30, ...(botUUID ? { botUUID } : {}) })
      .set(bearer(token))
      .then((res) => res as unknown as Answer);
  const times = <T>(count: number, start: () => T) => Array.from({ length: count }, start);
  /** The scopes the feed was read for since the last call, counted. */
  const readsSince = () => {
    const counts: Record<string, number> = {};
    for (const [scope] of feedScopes.mock.calls) {
      const name = [scope.envUUID === A.uuid ? 'A' : scope.envUUID === B.uuid ? 'B' : 'C', scope.botUUID === a2.bot.uuid ? '/a2' : ''].join('');
      counts[name] = (counts[name] ?? 0) + 1;
    }
    feedScopes.mockClear();
    return counts;
  };
  const subjects = (answers: Answer[]) => answers.map(({ status, body }) => ({ status, subjects: body.events.map(({ event }) => event.subject) }));

  try {
    const inA = times(10, () => poll(A.uuid));
    const inA2 = times(5, () => poll(A.uuid, a2.bot.uuid));
    const inB = times(10, () => poll(B.uuid));
    const inC = times(10, () => poll(C.uuid));
    await until('35 long polls waiting', async () => (await waiting()) === 35, 20_000);
    feedScopes.mockClear();
    wakeUps.mockClear();

    // A write to bot a1: A's environment-wide waiters wake; a2's, B's and C's do not.
    const first = await createConnector(writer, a1, token);
    expect(subjects(await Promise.all(inA))).toEqual(times(10, () => ({ status: 200, subjects: [first] })));
    expect(await waiting()).toBe(25);
    expect(readsSince()).toEqual({ A: 10 });
    // One statement for the whole process tells whom the batch concerns (two if the relay numbered twice).
    expect(wakeUps.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(wakeUps.mock.calls.length).toBeLessThanOrEqual(2);

    // Writes to bot a2 and to B: their waiters wake; C's wait on.
    const [second, third] = [await createConnector(writer, a2, token), await createConnector(writer, b1, token)];
    expect(subjects(await Promise.all(inA2))).toEqual(times(5, () => ({ status: 200, subjects: [second] })));
    expect(subjects(await Promise.all(inB))).toEqual(times(10, () => ({ status: 200, subjects: [third] })));
    expect(await waiting()).toBe(10);
    expect(readsSince()).toEqual({ 'A/a2': 5, B: 10 });

    const fourth = await createConnector(writer, c1, token);
    expect(subjects(await Promise.all(inC))).toEqual(times(10, () => ({ status: 200, subjects: [fourth] })));
    expect(readsSince()).toEqual({ C: 10 });
    expect(await waiting()).toBe(0);
  } finally {
    feedScopes.mockRestore();
    wakeUps.mockRestore();
  }
}

/** The suite's own database: the relay's lease is per database. */
describe('Long polls of the change feed (MariaDB)', () => {
  let database: string;
  let token: string;
  /** `leader`'s relay numbers every event; `follower`'s never leads: its long polls learn of events by the shared poll. */
  let leader: TestApp;
  let follower: TestApp;

  beforeAll(async () => {
    database = uniqueDatabaseName('platform_feed_polls');
    // Logging on: a test reads the request's log line.
    const config = mysqlTestConfig({ database: parseServerUrl(await createMigratedDatabase(database)), logLevel: 'info' });
    leader = await startTestApp(TRANSACTIONAL_SERVICE_APP, config);
    await until('the relay leads', async () => (await metricOf(leader, 'connector_event_relay_leader')) === 1, 30_000);
    follower = await startTestApp(TRANSACTIONAL_SERVICE_APP, config, { providers: [PAUSED_RELAY] });
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    await follower?.close();
    await leader?.close();
    await dropDatabase(database);
  });

  it('wakes only the waiters of the environments and bots that got events, when the relay of its own process numbers them', async () => {
    await wakesOnlyTheWaitersOfEventsScopes(leader, follower, token);
  });

  it('wakes only the waiters of the environments and bots that got events, when the relay is in another process', async () => {
    expect(await metricOf(follower, 'connector_event_relay_leader')).toBe(0);
    await wakesOnlyTheWaitersOfEventsScopes(follower, leader, token);
  });

  it('logs a long poll whose caller left at info, and counts no 500', async () => {
    const { organization, A } = await threeEnvironments(leader.dataSource);
    await leader.app.listen(0, '127.0.0.1');
    const { port } = leader.app.getHttpServer().address() as AddressInfo;
    const path = `${feedPathOf(organization.uuid, A.uuid)}?after=now&wait=30`;
    const connection = await openRaw(port);
    connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await until('the long poll waits', async () => (await metricOf(leader, 'connector_event_feed_waiting')) === 1);
    const linesBefore = leader.logs.length;

    connection.socket.destroy();
    await until('the waiter gone', async () => (await metricOf(leader, 'connector_event_feed_waiting')) === 0);
    const route = `GET /${TRANSACTIONAL_SERVICE_APP.label}/org/:orgUUID/env/:envUUID/connector-events`;
    await until('the request logged', () => leader.logs.slice(linesBefore).some((line) => String(line.msg).startsWith(route)));

    const lines = leader.logs.slice(linesBefore);
    expect(lines.filter((line) => String(line.msg).startsWith(route))).toEqual([
      expect.objectContaining({ level: 'info', msg: `${route} 200 (the caller closed the connection before the answer was sent)` }),
    ]);
    expect(lines.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
    expect((await leader.http.get('/metrics').expect(200)).text).not.toMatch(/status_code="5\d\d"/);
  });
});

describe('Long polls of the change feed (SQLite)', () => {
  let sut: TestApp;
  let token: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig());
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    await sut?.close();
  });

  it('wakes only the waiters of the environments and bots that got events', async () => {
    await wakesOnlyTheWaitersOfEventsScopes(sut, sut, token);
  });
});

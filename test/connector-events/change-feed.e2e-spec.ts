import { ConnectorEventOutbox, ConnectorHistoryRepository, creationOf, Database, newUuid, RestConnector, RestConnectorRepository } from '@app/domain';
import { aStoredConnector } from '../../apps/transactional-service/src/rest-connectors/testing/connector-factories';
import { parseServerUrl } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aBot, anEnvironment, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, createConnector, ISO_UTC_MILLIS, tenantPath, withBearerAuth } from '../rest-connectors/connector-factories';
import { connectorEventValidator } from '../support/asyncapi';
import { EventCursors } from '../../apps/transactional-service/src/connector-events/feed/event-cursors';
import { FeedConsumer, positionOf } from './feed-consumer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The suite's own database: the relay's lease is per database, and other suites' apps would hold it on the shared one. */
describe('Connector change events: the feed (MariaDB)', () => {
  let database: string;
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let feedPath: string;

  /** A bot of its own in the tenant's environment, and a consumer of its events from now on: what other tests write is not in it. */
  const ownBot = async (): Promise<{ bot: Tenant; consumer: FeedConsumer }> => {
    const bot = aBot(tenant.environment.uuid);
    await importData(sut.dataSource, { bots: [bot] });
    return { bot: { ...tenant, bot }, consumer: await new FeedConsumer(sut, token, feedPath, { botUUID: bot.uuid }).fromNow() };
  };
  const feedPathOf = (of: Tenant) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${of.organization.uuid}/env/${of.environment.uuid}/connector-events`;
  const feedPathOfEnvironment = (envUUID: string) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${envUUID}/connector-events`;
  /** Another environment of the tenant's organization. */
  const importOtherEnvironment = async (): Promise<string> => {
    const environment = anEnvironment(tenant.organization.uuid);
    await importData(sut.dataSource, { environments: [environment] });
    return environment.uuid;
  };
  const feed = (query: Record<string, string | number | string[]> = {}, path = feedPath, as = token) => sut.http.get(path).query(query).set(bearer(as));

  beforeAll(async () => {
    database = uniqueDatabaseName('platform_events');
    const url = await createMigratedDatabase(database);
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ database: parseServerUrl(url) }));
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    feedPath = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;
  });
  afterAll(async () => {
    await sut?.close();
    await dropDatabase(database);
  });

  it('answers every create, update, delete and restore as a CloudEvent, in order, with the version, ETag, changed fields, author and record', async () => {
    const secret = `bearer-${randomUUID()}`;
    const { bot, consumer } = await ownBot();
    const botBase = tenantPath(bot);
    const uuid = await createConnector(sut, bot, token, withBearerAuth({ bearerToken: secret, description: 'first' }));
    await sut.http
      .put(`${botBase}/${uuid}`)
      .set(bearer(token))
      .send(withBearerAuth({ name: 'Renamed', bearerToken: secret, description: 'second' }))
      .expect(200);
    await sut.http.delete(`${botBase}/${uuid}`).set(bearer(token)).expect(204);
    await sut.http.post(`${botBase}/${uuid}/restore`).set(bearer(token)).expect(200);

    const events = await consumer.until(4);

    expect(events.map(({ event }) => [event.type, event.data.version, event.data.etag, event.data.operation])).toEqual([
      ['connector.created.v1', 1, '"v1"', 'CREATED'],
      ['connector.updated.v1', 2, '"v2"', 'UPDATED'],
      ['connector.deleted.v1', 3, '"v3"', 'DELETED'],
      ['connector.restored.v1', 4, '"v4"', 'RESTORED'],
    ]);
    const [created, updated, deleted] = events;
    expect(created.event).toEqual({
      specversion: '1.0',
      id: expect.stringMatching(UUID),
      source: `/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bot/${bot.bot.uuid}/rest-connectors`,
      type: 'connector.created.v1',
      subject: uuid,
      time: expect.stringMatching(ISO_UTC_MILLIS),
      datacontenttype: 'application/json',
      data: {
        version: 1,
        etag: '"v1"',
        operation: 'CREATED',
        changedFields: expect.arrayContaining(['name', 'url', 'bearerToken', 'description']),
        updatedBy: 'alice',
        reason: null,
        revertedTo: null,
        promotionId: null,
        snapshot: expect.objectContaining({ uuid, description: 'first', authType: 'AUTH_BEARER', bearerToken: '<BEARER_TOKEN>' }),
      },
    });
    expect(updated.event.data.changedFields).toEqual(['name', 'description']);
    expect(updated.event.data.snapshot).toMatchObject({ name: 'Renamed', description: 'second' });
    expect(deleted.event.data.changedFields).toEqual([]);
    // The events are the history's versions: the same record, the same author.
    const version2 = await sut.http.get(`${botBase}/${uuid}/versions/2`).set(bearer(token)).expect(200);
    expect(updated.event.data.snapshot).toEqual(version2.body.snapshot);
    expect(updated.event.time).toBe(version2.body.updatedAt);
    expect(JSON.stringify(events)).not.toContain(secret);
    // The feed's events are the stream's: each one valid against the AsyncAPI document's event.
    const validate = await connectorEventValidator();
    for (const { event } of events) expect(validate(event) ? [] : validate.errors).toEqual([]);
    expect(new Set(events.map(({ event }) => event.id)).size).toBe(4);
    expect(consumer.problems()).toEqual([]);
  });

  it('follows from a cursor: the events after it, oldest first, and the cursor to go on from', async () => {
    const { bot, consumer } = await ownBot();
    const uuids = [await createConnector(sut, bot, token), await createConnector(sut, bot, token), await createConnector(sut, bot, token)];
    const all = await consumer.until(3);
    expect(all.map(({ event }) => event.subject)).toEqual(uuids);

    const afterFirst = await feed({ after: all[0].cursor, botUUID: bot.bot.uuid }).expect(200);
    expect(afterFirst.body.events.map((item: { event: { subject: string } }) => item.event.subject)).toEqual(uuids.slice(1));
    const one = await feed({ after: all[0].cursor, limit: 1, botUUID: bot.bot.uuid }).expect(200);
    expect(one.body.events).toHaveLength(1);
    // A page cut by its limit goes on from its last event: the next page is the third.
    const next = await feed({ after: one.body.cursor, botUUID: bot.bot.uuid }).expect(200);
    expect(next.body.events.map((item: { event: { subject: string } }) => item.event.subject)).toEqual(uuids.slice(2));
    const none = await feed({ after: afterFirst.body.cursor, botUUID: bot.bot.uuid }).expect(200);
    expect(none.body.events).toEqual([]);
    // An empty answer's cursor never goes back: after it, only what comes next.
    const fourth = await createConnector(sut, bot, token);
    const after = await feed({ after: none.body.cursor, botUUID: bot.bot.uuid, wait: 10 }).expect(200);
    expect(after.body.events.map((item: { event: { subject: string } }) => item.event.subject)).toEqual([fourth]);
  });

  it('gives opaque cursors: they tell nothing of the positions, two of one place differ, and each works only on its environment', async () => {
    const { bot, consumer } = await ownBot();
    await createConnector(sut, bot, token);
    const [created] = await consumer.until(1);
    const quiet = [await feed({ after: created.cursor }).expect(200), await feed({ after: created.cursor }).expect(200)];
    const cursors = [created.cursor, ...quiet.map((res) => res.body.cursor as string)];
    for (const cursor of cursors) expect(cursor).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(new Set(cursors).size).toBe(3);

    // Another environment of the same organization: the cursor is not its feed's.
    const otherEnvironment = await importOtherEnvironment();
    const res = await feed({ after: created.cursor }, feedPathOfEnvironment(otherEnvironment)).expect(400);
    expect(res.body.message).toEqual([expect.stringMatching(/^after must be a cursor a previous answer of this environment's feed gave/)]);
  });

  it("filters by bot, and keeps each environment's events to itself", async () => {
    const otherBot = aBot(tenant.environment.uuid);
    await importData(sut.dataSource, { bots: [otherBot] });
    const elsewhere = await seedTenant(sut.dataSource);
    const before = await feed({ botUUID: otherBot.uuid }).expect(200);
    const consumer = new FeedConsumer(sut, token, feedPath, { botUUID: otherBot.uuid });
    consumer.cursor = before.body.cursor;

    const inFirstBot = await createConnector(sut, tenant, token);
    const inOtherBot = await createConnector(sut, { ...tenant, bot: otherBot }, token);
    const inOtherEnvironment = await createConnector(sut, elsewhere, token);
    const events = await consumer.until(1);

    expect(events.map(({ event }) => event.subject)).toEqual([inOtherBot]);
    // The whole environment, from its oldest event, until both of its bots' events came.
    const everything = new FeedConsumer(sut, token, feedPath);
    for (let round = 0; !everything.events.some(({ event }) => event.subject === inOtherBot); round++) {
      if (round === 100) throw new Error("the environment feed never gave the other bot's event");
      await everything.next(10, 1000);
    }
    const subjects = everything.events.map(({ event }) => event.subject);
    expect(subjects).toContain(inFirstBot);
    expect(subjects).not.toContain(inOtherEnvironment);
    expect(everything.events.every(({ event }) => event.source.includes(`/env/${tenant.environment.uuid}/`))).toBe(true);
  });

  it('waits for the next event when asked (a long poll), and answers it as soon as it is numbered', async () => {
    const { bot, consumer } = await ownBot();
    const answered = feed({ after: consumer.cursor!, wait: 30, botUUID: bot.bot.uuid }).then((res) => res);
    const uuid = await createConnector(sut, bot, token);

    const res = await answered;
    expect(res.status).toBe(200);
    expect(res.body.events.map((item: { event: { subject: string } }) => item.event.subject)).toEqual([uuid]);
  });

  it('has no event for a write that rolled back', async () => {
    const db = sut.app.get(Database);
    const connectors = sut.app.get(RestConnectorRepository);
    const history = sut.app.get(ConnectorHistoryRepository);
    const outbox = sut.app.get(ConnectorEventOutbox);
    const { bot, consumer } = await ownBot();
    const connector = aHeldConnector(bot.bot.uuid);

    await expect(
      db.transaction(async (tx) => {
        connectors.insert(tx, pathOf(bot), connector, []);
        const version = creationOf(connector, []);
        history.record(tx, version);
        outbox.append(tx, pathOf(bot), version);
        // A statement that answers takes the writes before it to the server (ServerTransaction): they are written.
        await tx.rows('SELECT 1 AS one');
        throw new Error('rolled back after the version and its event were written');
      }),
    ).rejects.toThrow('rolled back');
    const committed = await createConnector(sut, bot, token);

    const events = await consumer.until(1);
    expect(events.map(({ event }) => event.subject)).toEqual([committed]);
    const [{ count }] = await sut.dataSource.query('SELECT COUNT(*) AS count FROM connector_events WHERE connector_uuid = ?', [connector.uuid]);
    expect(Number(count)).toBe(0);
  });

  it('never skips an event that commits after later ones were numbered and read (MySQL shows AUTO_INCREMENT ids out of commit order)', async () => {
    const db = sut.app.get(Database);
    const connectors = sut.app.get(RestConnectorRepository);
    const history = sut.app.get(ConnectorHistoryRepository);
    const outbox = sut.app.get(ConnectorEventOutbox);
    const { bot, consumer } = await ownBot();
    const slow = aHeldConnector(bot.bot.uuid);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const eventWritten = new Promise<void>((resolve) => (written = resolve));

    // The slow write takes its seq first, then waits before its commit.
    const slowWrite = db.transaction(async (tx) => {
      connectors.insert(tx, pathOf(bot), slow, []);
      const version = creationOf(slow, []);
      history.record(tx, version);
      outbox.append(tx, pathOf(bot), version);
      // A statement that answers takes the writes before it to the server (ServerTransaction): the event's row is
      // inserted, and its seq taken, now.
      await tx.rows('SELECT 1 AS one');
      written();
      await gate;
    });
    await eventWritten;
    const fast = [await createConnector(sut, bot, token), await createConnector(sut, bot, token)];
    // The consumer reads past the two fast ones while the slow one is not committed.
    expect((await consumer.until(2)).map(({ event }) => event.subject)).toEqual(fast);

    release();
    await slowWrite;

    expect((await consumer.until(3)).map(({ event }) => event.subject)).toEqual([...fast, slow.uuid]);
    const seqs = await sut.dataSource.query(
      `SELECT connector_uuid AS uuid, seq, position FROM connector_events WHERE connector_uuid IN (?, ?, ?) ORDER BY seq`,
      [slow.uuid, ...fast],
    );
    // The slow one's seq is the lowest of the three, its position the highest: a cursor of seq would have skipped it.
    expect(seqs[0].uuid).toBe(slow.uuid);
    expect(Number(seqs[0].position)).toBeGreaterThan(Math.max(...seqs.slice(1).map((row: { position: string }) => Number(row.position))));
  });

  it('keeps every connector in version order without a gap or a duplicate under concurrent writers, on one connector and across many', async () => {
    const { bot, consumer } = await ownBot();
    const botBase = tenantPath(bot);
    const shared = await createConnector(sut, bot, token);
    const put = (uuid: string, n: number) =>
      sut.http
        .put(`${botBase}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: `Connector ${uuid}`, description: `write ${n}` }));
    // Followed while the writers run: the consumer reads as events arrive, not once at the end.
    let expected = Infinity;
    let writing = true;
    const following = (async () => {
      while (writing || consumer.events.length < expected) await consumer.next(1, 1000);
    })();
    const results = await Promise.all([
      ...Array.from({ length: 40 }, (_, n) => put(shared, n)),
      ...Array.from({ length: 30 }, () => createConnector(sut, bot, token).then((uuid) => put(uuid, 0))),
    ])
      .finally(() => (writing = false))
      .catch((error) => {
        expected = 0;
        throw error;
      });
    const sharedWrites = results.slice(0, 40).filter((res) => res.status === 200).length;
    expect(results.slice(0, 40).every((res) => res.status === 200 || res.status === 409)).toBe(true);
    expect(results.slice(40).every((res) => res.status === 200)).toBe(true);
    expected = 1 + sharedWrites + 60;
    await following;

    expect(consumer.events).toHaveLength(expected);
    expect(consumer.events.filter(({ event }) => event.subject === shared).map(({ event }) => event.data.version)).toEqual(
      Array.from({ length: 1 + sharedWrites }, (_, n) => n + 1),
    );
    expect(consumer.problems()).toEqual([]);
  });

  describe('bad input', () => {
    it.each([
      [{ after: 'abc' }, 'after must be a cursor a previous answer of this'],
      [{ after: '-1' }, 'after must be a cursor'],
      [{ after: 'x'.repeat(65) }, 'after must be a cursor'],
      [{ after: '1042' }, 'after: numeric cursors are no longer accepted (cursors are opaque now): follow the feed again without after'],
      [{ limit: 0 }, 'limit must not be less than 1'],
      [{ limit: 1001 }, 'limit must not be greater than 1000'],
      [{ wait: 31 }, 'wait must not be greater than 30'],
      [{ wait: 'soon' }, 'wait must be an integer number'],
      [{ botUUID: 'nope' }, 'botUUID must be a UUID'],
      [{ after: ['1', '2'] }, 'after must be a cursor'],
      [{ wait: '1.5' }, 'wait must be an integer number'],
      [{ since: '1' }, 'since'],
    ])('is a 400 naming what is wrong: %j', async (query, message) => {
      const res = await feed(query).expect(400);
      expect(JSON.stringify(res.body.message)).toContain(message);
    });

    it('is a 404 naming the missing link: an environment of another organization, a bot of another environment', async () => {
      const elsewhere = await seedTenant(sut.dataSource);
      const res = await feed(
        {},
        `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${elsewhere.environment.uuid}/connector-events`,
      ).expect(404);
      expect(res.body.message).toContain(elsewhere.environment.uuid);
      const bot = await feed({ botUUID: elsewhere.bot.uuid }).expect(404);
      expect(bot.body.message).toContain(elsewhere.bot.uuid);
    });

    it("never answers another organization's events under one's own organization's path: 404, whatever the query", async () => {
      // Another organization's environment, with events in it (its connectors' snapshots: URLs, headers, bodies).
      const elsewhere = await seedTenant(sut.dataSource);
      const theirToken = await signToken({ ...ALICE, orgs: [elsewhere.organization.uuid] });
      const theirs = new FeedConsumer(sut, theirToken, feedPathOf(elsewhere));
      await createConnector(sut, elsewhere, theirToken);
      await theirs.until(1);
      // A caller of our organization only, without write scope.
      const ours = await signToken({ username: 'mallory', orgs: [tenant.organization.uuid] });
      const underOurOrg = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${elsewhere.environment.uuid}/connector-events`;

      const queries: Array<Record<string, string | number>> = [
        {},
        { limit: 1000 },
        { botUUID: elsewhere.bot.uuid },
        { after: 'now' },
        { after: theirs.cursor! },
      ];
      for (const query of queries) {
        const res = await feed(query, underOurOrg, ours).expect(404);
        expect(res.body).not.toHaveProperty('events');
        expect(JSON.stringify(res.body)).not.toContain('connector.created');
        expect(res.body.message).toContain(elsewhere.environment.uuid);
      }
      // Their bot under our environment's path: 404 too.
      const bot = await feed({ botUUID: elsewhere.bot.uuid, limit: 1000 }, feedPath, ours).expect(404);
      expect(bot.body).not.toHaveProperty('events');
    });

    it('checks the scope before the retention: an expired cursor on an environment outside the organization is a 404, not a 410', async () => {
      const elsewhere = await seedTenant(sut.dataSource);
      // A cursor sealed for that path, as only the platform's key could make it: the 404 must not depend on the cursor.
      const sealed = sut.app.get(EventCursors).write(1, { orgUUID: tenant.organization.uuid, envUUID: elsewhere.environment.uuid });
      await sut.dataSource.query('UPDATE connector_event_relay SET purged_through = 2 WHERE id = 1 AND purged_through < 2');
      try {
        const res = await feed(
          { after: sealed },
          `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${elsewhere.environment.uuid}/connector-events`,
        ).expect(404);
        expect(res.body.message).toContain(elsewhere.environment.uuid);
        // The same cursor on an environment in scope is the 410.
        const own = sut.app.get(EventCursors).write(1, { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid });
        await feed({ after: own }).expect(410);
      } finally {
        await sut.dataSource.query('UPDATE connector_event_relay SET purged_through = 0 WHERE id = 1');
      }
    });

    it('is a 401 without a token, and a 403 for a token of another organization', async () => {
      await sut.http.get(feedPath).expect(401);
      const stranger = await signToken({ orgs: [randomUUID()], username: 'mallory' });
      const res = await feed({}, feedPath, stranger).expect(403);
      expect(res.body.message).toContain(tenant.organization.uuid);
    });
  });

  it('answers 410 Gone, saying how to recover, for a cursor older than what retention kept', async () => {
    const { bot, consumer } = await ownBot();
    await createConnector(sut, bot, token);
    const [first] = await consumer.until(1);
    await sut.dataSource.query('UPDATE connector_event_relay SET purged_through = ? WHERE id = 1', [(await positionOf(sut, first)) + 1]);
    try {
      const res = await feed({ after: first.cursor }).expect(410);
      expect(res.body.message).toContain('list the connectors again');
      // It names no position: positions count every tenant's writes.
      expect(res.body.message).not.toMatch(/\d{2,}/);
      await feed({}).expect(200);
    } finally {
      await sut.dataSource.query('UPDATE connector_event_relay SET purged_through = 0 WHERE id = 1');
    }
  });
});

function pathOf(tenant: Tenant) {
  return { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid, botUUID: tenant.bot.uuid };
}

/** A connector row of the bot, written by a test's own transaction. */
function aHeldConnector(botUuid: string): RestConnector {
  const name = `Held ${randomUUID()}`;
  return aStoredConnector({ uuid: newUuid(), botUuid, name, nameKey: name.toLowerCase(), activeNameKey: name.toLowerCase(), updatedAt: new Date() });
}

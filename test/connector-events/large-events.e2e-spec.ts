import {
  buildDataSourceOptions,
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  creationOf,
  openDatabase,
  EVENT_READ_BYTES,
  LIMITS,
  newUuid,
  PlatformDataSource,
  RestConnectorRepository,
  RestConnectorWriteDto,
} from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { benchToken, Server, startApp } from '../../bench/processes';
import { aStoredConnector } from '../../apps/transactional-service/src/rest-connectors/testing/connector-factories';
import { jetStreamAdmin, until } from '../support/connector-events';
import { seedTenant, Tenant } from '../support/fixtures';
import { NatsServer, startNatsServer } from '../support/nats-server';
import { ROOT } from '../support/run-command';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { FeedEvent } from './feed-consumer';

/** Connectors as large as a create may make them, and how many deletes and restores each goes through: ~250 events of ~0.5 MB. */
const CONNECTORS = 8;
const ROUNDS = 15;
const EVENTS = CONNECTORS * (1 + 2 * ROUNDS);

/**
 * The biggest connector a create accepts (the DTO's limits): a 64 KiB body, 64 KiB of output settings, 50 headers of
 * 8 KiB, the longest name, description and URL. Its snapshot, and so each of its events, is ~0.5 MB of JSON.
 */
function theLargestConnectorBody(n: number): RestConnectorWriteDto {
  const body = plainToInstance(RestConnectorWriteDto, {
    name: `Large ${n} `.padEnd(LIMITS.name, 'n'),
    description: 'd'.repeat(LIMITS.description),
    requestType: 'POST',
    url: `https://api.example.com/${'u'.repeat(LIMITS.url - 30)}`,
    headers: Array.from({ length: LIMITS.headers }, (_, i) => ({ header: `X-Large-${i}`, value: 'v'.repeat(LIMITS.headerValueBytes) })),
    contentType: 'TEXT_PLAIN',
    authType: 'AUTH_NONE',
    body: 'b'.repeat(LIMITS.payloadBytes),
    output: 'o'.repeat(LIMITS.payloadBytes),
  });
  const problems = validateSync(body, { whitelist: true, forbidNonWhitelisted: true }).map(String);
  if (problems.length > 0) throw new Error(`the largest connector is not a valid create body: ${problems.join('; ')}`);
  return body;
}

/** The page's answer, its size in bytes, or the 503 that asked to come back later. */
async function page(
  base: string,
  path: string,
  token: string,
  after?: string,
): Promise<{ status: number; bytes: number; retryAfter: string | null; body: any }> {
  const query = new URLSearchParams({ limit: '1000', ...(after === undefined ? {} : { after }) });
  const res = await fetch(`${base}${path}?${query}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), retryAfter: res.headers.get('retry-after'), body: JSON.parse(text) };
}

/**
 * Follows the whole feed with `limit=1000` as a client does (a 503 is retried after its Retry-After), until it has
 * `count` events; every page is checked against the byte bound. Keeps only what the checks need of each event.
 */
async function followAll(base: string, path: string, token: string, count: number) {
  const events: Array<{ id: string; subject: string; version: number }> = [];
  const problems: string[] = [];
  let busy = 0;
  let cursor: string | undefined;
  for (let answers = 0; events.length < count; answers++) {
    if (answers === 500) throw new Error(`the feed gave ${events.length} events of ${count} after 500 answers`);
    const { status, bytes, retryAfter, body } = await page(base, path, token, cursor);
    if (status === 503 && retryAfter !== null) {
      busy += 1;
      await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
      continue;
    }
    if (status !== 200) throw new Error(`the feed answered ${status}: ${JSON.stringify(body).slice(0, 500)}`);
    const items = body.events as FeedEvent[];
    if (bytes > EVENT_READ_BYTES && items.length > 1) problems.push(`a page of ${items.length} events is ${bytes} bytes`);
    events.push(...items.map(({ event }) => ({ id: event.id, subject: event.subject, version: event.data.version })));
    cursor = body.cursor;
  }
  return { events, problems, busy };
}

/** Per connector the versions 1, 2, 3… in order, each event once. */
function orderProblems(events: Array<{ id: string; subject: string; version: number }>): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const last = new Map<string, number>();
  for (const { id, subject, version } of events) {
    if (ids.has(id)) problems.push(`${id} twice`);
    ids.add(id);
    if (version !== (last.get(subject) ?? 0) + 1) problems.push(`${subject}: version ${version} after ${last.get(subject) ?? 0}`);
    last.set(subject, version);
  }
  return problems;
}

/**
 * Issue 38: one `limit=1000` read of large events killed the app under the image's 128 MB heap, three concurrent ones
 * did too, and a relay with ~530 large events waiting during a NATS outage killed every pod that took it over. Here
 * the built transactional service runs as the image starts it (its node flags and ENV, bench/processes.ts), on a
 * database of its own holding ~250 events of ~0.5 MB, with its NATS down until the last test.
 */
describe('Change events of the largest connectors, against the built app under the image heap flags (MariaDB, NATS)', () => {
  let database: string;
  let nats: NatsServer;
  let app: Server;
  let base: string;
  let tenant: Tenant;
  let token: string;
  let feedPath: string;
  const uuids: string[] = [];
  /** `work`, or, when it failed because the app died, the app's exit and the end of its stderr. */
  const whileRunning = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      app.assertRunning();
      throw error;
    }
  };

  beforeAll(async () => {
    const main = join(ROOT, 'dist', 'apps', 'transactional-service', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: npm test builds before running jest`);
    database = uniqueDatabaseName('platform_large_events');
    const url = await createMigratedDatabase(database);
    // The broker is down while the events are written: the relay has them all waiting, as in the outage.
    nats = await startNatsServer({ name: 'large-events' });
    await nats.kill();

    const dataSource = await new PlatformDataSource(buildDataSourceOptions(parseServerUrl(url), { migrationsRun: false })).initialize();
    try {
      tenant = await seedTenant(dataSource);
      const db = openDatabase(dataSource);
      const path = { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid, botUUID: tenant.bot.uuid };
      for (let n = 0; n < CONNECTORS; n++) {
        const body = theLargestConnectorBody(n);
        const { name, requestType, url: target, contentType, authType, body: payload, output } = body;
        const connector = aStoredConnector({
          ...{ name, requestType, url: target, contentType, authType, body: payload, output },
          uuid: newUuid(),
          botUuid: tenant.bot.uuid,
          nameKey: body.name.toLowerCase(),
          activeNameKey: body.name.toLowerCase(),
          description: body.description ?? null,
          headers: body.headers ?? [],
          updatedAt: new Date(),
        });
        uuids.push(connector.uuid);
        await db.transaction(async (tx) => {
          new RestConnectorRepository(db).insert(tx, path, connector, []);
          // A statement that answers sends the connector's ~0.5 MB INSERT alone, before the version's (issue 38 lists
          // the empty batch a write past the batch limit sends after one that went alone).
          await tx.rows('SELECT 1 AS one');
          const version = creationOf(connector, []);
          new ConnectorHistoryRepository(db).record(tx, version);
          new ConnectorEventOutbox().append(tx, path, version);
        });
      }
    } finally {
      await dataSource.destroy();
    }

    app = await startApp('transactional-service', url, { NATS_URL: nats.url });
    base = `http://127.0.0.1:${app.port}`;
    token = await benchToken(tenant.organization.uuid, 1);
    feedPath = `/platform-transactional-service/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;
    const connectorsPath = `/platform-transactional-service/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bot/${tenant.bot.uuid}/rest-connectors`;
    // Each connector deleted and restored again and again: every write is an event carrying the ~0.5 MB snapshot.
    await whileRunning(
      Promise.all(
        uuids.map(async (uuid) => {
          for (let round = 0; round < ROUNDS; round++) {
            for (const [method, suffix] of [
              ['DELETE', ''],
              ['POST', '/restore'],
            ]) {
              const res = await fetch(`${base}${connectorsPath}/${uuid}${suffix}`, { method, headers: { Authorization: `Bearer ${token}` } });
              if (res.status >= 300) throw new Error(`${method} ${suffix || 'delete'} answered ${res.status}: ${await res.text()}`);
            }
          }
        }),
      ),
    );
    app.assertRunning();
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await nats?.close();
    if (database) await dropDatabase(database);
  }, 60_000);

  it('answers a limit=1000 read over them page by page, each page within the byte bound, every event once and in order; the process stays up', async () => {
    const { events, problems } = await whileRunning(followAll(base, feedPath, token, EVENTS));

    expect(problems).toEqual([]);
    expect(events).toHaveLength(EVENTS);
    expect(orderProblems(events)).toEqual([]);
    app.assertRunning();
  }, 300_000);

  it('answers four such readers at once, each within the bound (a reader told 503 comes back after Retry-After); the process stays up', async () => {
    const readers = await whileRunning(Promise.all(Array.from({ length: 4 }, () => followAll(base, feedPath, token, EVENTS))));

    for (const { events, problems } of readers) {
      expect(problems).toEqual([]);
      expect(events).toHaveLength(EVENTS);
      expect(orderProblems(events)).toEqual([]);
    }
    app.assertRunning();
  }, 300_000);

  it('publishes the whole backlog to JetStream when the broker comes back: every event once, per connector in order; the process stays up', async () => {
    const fed = (await whileRunning(followAll(base, feedPath, token, EVENTS))).events;
    await nats.start();
    const admin = await jetStreamAdmin(nats.url);
    try {
      await until(
        `${EVENTS} events on the stream`,
        async () => {
          app.assertRunning();
          const info = await admin.jsm.streams.info('CONNECTOR_EVENTS').catch(() => undefined);
          return info?.state.messages === EVENTS;
        },
        240_000,
      );
      const { state } = await admin.jsm.streams.info('CONNECTOR_EVENTS');
      const stored: Array<{ id: string; subject: string; version: number }> = [];
      for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
        const message = await admin.jsm.streams.getMessage('CONNECTOR_EVENTS', { seq });
        const event = message!.json<FeedEvent['event']>();
        expect(message!.header.get('Nats-Msg-Id')).toBe(event.id);
        stored.push({ id: event.id, subject: event.subject, version: event.data.version });
      }
      expect(orderProblems(stored)).toEqual([]);
      expect(new Set(stored.map(({ id }) => id))).toEqual(new Set(fed.map(({ id }) => id)));
    } finally {
      await admin.close();
    }
    app.assertRunning();
  }, 300_000);
});

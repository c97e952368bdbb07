import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { RELAY_TIMING } from '../../apps/transactional-service/src/connector-events/relay/connector-event-relay';
import { aConnectorBody, ALICE, tenantPath } from '../rest-connectors/connector-factories';
import { startApp } from '../support/app-process';
import { jetStreamAdmin, storedMessages, until } from '../support/connector-events';
import { seedTenant, Tenant } from '../support/fixtures';
import { NatsServer, startNatsServer } from '../support/nats-server';
import { ROOT } from '../support/run-command';
import { isAlive, stopProcess } from '../support/server-process';
import { TEST_JWT_SECRET } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';

const MAIN = join(ROOT, 'dist', 'apps', 'transactional-service', 'main.js');
const STREAM = 'CONNECTOR_EVENTS';
const { leaseMs } = RELAY_TIMING;

/** The built transactional service in a process of its own, as a pod runs it. */
interface Pod {
  readonly child: ChildProcess;
  readonly http: TestAgent;
  /** What it wrote to stdout and stderr. */
  output(): string;
  /** Its JSON log lines whose `msg` starts with `prefix`. */
  logged(prefix: string): Array<Record<string, unknown>>;
  metric(name: string): Promise<number>;
  /** SIGKILL; resolves when it has exited. */
  kill(): Promise<void>;
}

/** The relay's row, as the database says it (times on its clock). */
interface RelayRow {
  holder: string | null;
  epoch: number;
  leaseUntil: Date | null;
  takenAt: Date | null;
  sequencedThrough: number;
  publishedThrough: number;
  now: Date;
}

/**
 * Two pods of the transactional service, the built app spawned twice on one MariaDB database and one private
 * nats-server: the relay's leader is killed with SIGKILL, then another leader is frozen with SIGSTOP while its publish
 * waits for the broker. Times come from the relay's row (the database's clock), bounds from the configured lease.
 */
describe('The change events relay across pods: the built app twice, the leader killed or frozen (MariaDB, NATS)', () => {
  let database: string;
  let url: string;
  let dataSource: PlatformDataSource;
  let nats: NatsServer;
  let tenant: Tenant;
  let token: string;
  const pods: Pod[] = [];

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first (npm test builds before running jest)`);
    database = uniqueDatabaseName('platform_relay_pods');
    url = await createMigratedDatabase(database);
    dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(url), { migrationsRun: false }));
    await dataSource.initialize();
    tenant = await seedTenant(dataSource);
    token = await signToken(ALICE);
    nats = await startNatsServer({ name: 'relay-pods' });
  });
  afterAll(async () => {
    for (const pod of pods) await pod.kill();
    await nats?.close();
    await dataSource?.destroy();
    if (database) await dropDatabase(database);
  });

  /** Starts the built app on the suite's database and broker; resolves once it is ready. */
  async function startPod(): Promise<Pod> {
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: url,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      NATS_URL: nats.url,
      // The writes of the test go as fast as the pod answers: no per-caller limit in the way.
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'info',
    };
    const app = await startApp({ args: [MAIN], env });
    const pod: Pod = {
      child: app.child,
      http: request(app.base),
      output: () => app.output,
      logged: (prefix) =>
        app.output
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => String(line.msg).startsWith(prefix)),
      metric: async (name) => {
        const text = (await pod.http.get('/metrics').expect(200)).text;
        const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
        if (!match) throw new Error(`no ${name} in /metrics`);
        return Number(match[1]);
      },
      kill: async () => {
        await app.stop();
      },
    };
    pods.push(pod);
    return pod;
  }

  const pidOf = (holder: string | null) => (holder === null ? undefined : Number(holder.split(':')[1]));
  const holdsTheLease = (app: Pod, row: RelayRow) => pidOf(row.holder) === app.child.pid;

  async function relayRow(): Promise<RelayRow> {
    const [row] = await dataSource.query(
      'SELECT holder, lease_epoch AS epoch, lease_until, lease_taken_at, sequenced_through, published_through, UTC_TIMESTAMP(3) AS now FROM connector_event_relay WHERE id = 1',
    );
    return {
      holder: row.holder,
      epoch: Number(row.epoch),
      leaseUntil: row.lease_until,
      takenAt: row.lease_taken_at,
      sequencedThrough: Number(row.sequenced_through),
      publishedThrough: Number(row.published_through),
      now: row.now,
    };
  }

  /** The highest position given to the connectors' events (0 while one is not numbered yet). */
  async function lastPositionOf(connectors: string[]): Promise<number> {
    const [row] = await dataSource.query(
      `SELECT COUNT(*) - COUNT(position) AS waiting, MAX(position) AS last FROM connector_events WHERE connector_uuid IN (${connectors.map(() => '?').join(', ')})`,
      connectors,
    );
    return Number(row.waiting) > 0 ? 0 : Number(row.last);
  }

  /** The ids of the connectors' events, as the outbox holds them, by connector in version order. */
  async function eventIdsOf(connectors: string[]): Promise<Map<string, string[]>> {
    const rows: Array<{ connector_uuid: string; event_uuid: string }> = await dataSource.query(
      `SELECT connector_uuid, event_uuid FROM connector_events WHERE connector_uuid IN (${connectors.map(() => '?').join(', ')}) ORDER BY version`,
      connectors,
    );
    const ids = new Map<string, string[]>(connectors.map((connector) => [connector, []]));
    for (const row of rows) ids.get(row.connector_uuid)!.push(row.event_uuid);
    return ids;
  }

  /** Per connector, the ids of its events in stream order. */
  async function streamIdsOf(connectors: string[]): Promise<Map<string, string[]>> {
    const admin = await jetStreamAdmin(nats.url);
    try {
      const ids = new Map<string, string[]>(connectors.map((connector) => [connector, []]));
      for (const { json } of await storedMessages(admin.jsm, STREAM)) {
        const event = json as { id: string; subject: string };
        ids.get(event.subject)?.push(event.id);
      }
      return ids;
    } finally {
      await admin.close();
    }
  }

  const create = async (via: Pod) => {
    const res = await via.http.post(tenantPath(tenant)).set(bearer(token)).send(aConnectorBody());
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
    return res.body.uuid as string;
  };
  const update = async (via: Pod, connector: string, description: string) => {
    const res = await via.http
      .put(`${tenantPath(tenant)}/${connector}`)
      .set(bearer(token))
      .send(aConnectorBody({ description }));
    if (res.status !== 200) throw new Error(`update answered ${res.status}: ${res.text}`);
  };

  /** `until`, failing with the relay's row and the end of each pod's output. */
  const waitFor = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) =>
    until(what, check, timeoutMs).catch(async (error: Error) => {
      const outputs = pods.map((pod) => `--- pod ${pod.child.pid} ---\n${pod.output().slice(-2000)}`).join('\n');
      throw new Error(`${error.message}\nrelay row: ${JSON.stringify(await relayRow())}\n${outputs}`, { cause: error });
    });

  /** Every event of the connectors is on the stream once, in version order per connector, and marked published. */
  async function untilAllPublished(connectors: string[], why: string): Promise<void> {
    await waitFor(
      `${why}: every event of the connectors on the stream`,
      async () => {
        const last = await lastPositionOf(connectors);
        if (last === 0 || (await relayRow()).publishedThrough < last) return false;
        const [outbox, stream] = [await eventIdsOf(connectors), await streamIdsOf(connectors)];
        return connectors.every((connector) => stream.get(connector)!.length >= outbox.get(connector)!.length);
      },
      60_000,
    );
    expect(await streamIdsOf(connectors)).toEqual(await eventIdsOf(connectors));
  }

  it('moves the lease within the configured lease of a SIGKILL of the leader; the other pod numbers and publishes every event once, in order', async () => {
    const [a, b] = [await startPod(), await startPod()];
    let first!: RelayRow;
    await waitFor('a pod holds the lease', async () => ((first = await relayRow()), holdsTheLease(a, first) || holdsTheLease(b, first)));
    const [leader, follower] = holdsTheLease(a, first) ? [a, b] : [b, a];

    // Writes go through the follower all along: before, across and after the leader's death.
    const connectors = [await create(follower), await create(follower), await create(follower)];
    await untilAllPublished(connectors, 'before the kill');
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) for (const connector of connectors) await update(follower, connector, `write ${++written}`);
    })();
    writer.catch(() => undefined); // its failure is thrown where it is awaited, below

    await waitFor('a few writes under the first leader', () => written >= 6);
    await leader.kill();
    const atDeath = await relayRow();
    const writtenAtDeath = written;
    let taken!: RelayRow;
    await waitFor('the follower took the lease', async () => holdsTheLease(follower, (taken = await relayRow())));
    await waitFor('a few writes under the new leader', () => written >= writtenAtDeath + 6);
    writing = false;
    await writer;
    connectors.push(await create(follower));
    await untilAllPublished(connectors, 'after the takeover');

    expect(holdsTheLease(leader, atDeath)).toBe(true);
    // The dead leader's lease ran at most leaseMs past its death (its last renewal came before), on the database's clock.
    expect(atDeath.leaseUntil!.getTime() - atDeath.now.getTime()).toBeLessThanOrEqual(leaseMs);
    // Taken once that lease had ended, not before, and soon after (a generous bound: the machine may be loaded).
    expect(taken.epoch).toBe(atDeath.epoch + 1);
    expect(taken.takenAt!.getTime()).toBeGreaterThanOrEqual(atDeath.leaseUntil!.getTime());
    expect(taken.takenAt!.getTime() - atDeath.now.getTime()).toBeLessThanOrEqual(3 * leaseMs);
  }, 240_000);

  it('hands the lease over when the leader freezes mid-publish (SIGSTOP); resumed, the old leader publishes nothing more', async () => {
    // The leader is the pod left by the test above (or, alone, whichever leads); a new pod follows.
    const leader = pods.find((pod) => isAlive(pod.child)) ?? (await startPod());
    await waitFor('the pod leads', async () => holdsTheLease(leader, await relayRow()));
    const follower = await startPod();
    const connector = await create(follower);
    await untilAllPublished([connector], 'the first version');

    // Every message on the subjects, as a core NATS subscriber sees them: JetStream's duplicates included.
    const seen: string[] = [];
    const watcher: NatsConnection = await connect({ servers: nats.url });
    try {
      watcher.subscribe('connectors.events.>', {
        callback: (_error, message) => {
          seen.push(message.headers?.get('Nats-Msg-Id') ?? '?');
        },
      });
      await watcher.flush();

      // The broker stops answering: the leader's publish of version 2 waits for its acknowledgement until it times out,
      // then the leader numbers the versions written meanwhile and publishes them from version 2 again, one at a time.
      await nats.pause();
      for (let version = 2; version <= 6; version++) await update(follower, connector, `version ${version}`);
      await waitFor('the leader numbered them', async () => {
        const last = await lastPositionOf([connector]);
        return last > 0 && (await relayRow()).sequencedThrough >= last;
      });
      // Frozen while it waits for the acknowledgement of version 2, versions 3 to 6 in its hands.
      await stopProcess(leader.child, 'the leader');
      const atFreeze = await relayRow();
      nats.resume();

      let taken!: RelayRow;
      await waitFor('the follower took the lease', async () => holdsTheLease(follower, (taken = await relayRow())));
      await untilAllPublished([connector], 'after the takeover');
      await watcher.flush();
      const seenBeforeResume = seen.length;

      leader.child.kill('SIGCONT');
      await waitFor('the old leader knows it lost the lease', async () => (await leader.metric('connector_event_relay_leader')) === 0);
      // A version written after, published by the new leader: everything the old one sent before it has arrived too.
      await update(follower, connector, 'version 7');
      const [, , , , , , seventh] = (await eventIdsOf([connector])).get(connector)!;
      await waitFor('the seventh version seen', () => seen.includes(seventh));
      await untilAllPublished([connector], 'the seventh version');

      // Resumed, the old leader sent nothing: the only message since is the new leader's seventh version.
      expect(seen.slice(seenBeforeResume)).toEqual([seventh]);
      expect([...leader.logged('The change events relay lease lapsed'), ...leader.logged('Lost the change events relay lease')]).not.toEqual([]);
      expect(holdsTheLease(leader, atFreeze)).toBe(true);
      expect(taken.epoch).toBe(atFreeze.epoch + 1);
      expect(taken.takenAt!.getTime()).toBeGreaterThanOrEqual(atFreeze.leaseUntil!.getTime());
    } finally {
      await watcher.close();
    }
  }, 240_000);
});

import { GtidPosition, LastWrite } from '@app/domain';
import pino from 'pino';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ReplicaPositions, WritePositions } from '../../libs/platform/src/database/write-positions';
import { freePort } from '../support/free-port';
import { RedisServer, startRedisServer } from '../support/redis-server';
import { TEST_REDIS_URL } from '../support/test-redis';

const position = (text: string) => GtidPosition.parse(text)!;
const silent = pino({ level: 'silent' });
const text = (last: LastWrite) => last.toString();

/** The replicas as the positions see them: where the primary is, and every write that had to wait for them. */
class Replicas implements ReplicaPositions {
  primary = '0-1-1';
  readonly waited: string[] = [];
  constructor(readonly settleMs: number) {}
  async primaryPosition(): Promise<GtidPosition | undefined> {
    return position(this.primary);
  }
  async applied(written: GtidPosition): Promise<void> {
    this.waited.push(written.toString());
  }
}

/** Polls `lastWrite` until it is no longer `'unknown'` (ioredis reconnects, then the epoch is checked, in the background). */
async function known(sut: WritePositions, caller: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const last = await sut.lastWrite(caller);
    if (last !== 'unknown') return text(last);
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the last write of ${caller} stayed unknown for 10 s`);
}

/** A logger that keeps the messages of its lines. */
function recordingLogger(): { logger: pino.Logger; messages: string[] } {
  const messages: string[] = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => messages.push(String(JSON.parse(line).msg)) }), messages };
}

/**
 * The first lookup after Redis lost the positions: `'unknown'` (the lookup itself saw the new lineage), unless the
 * process's own periodic check (every second, a state the test does not hold) saw the loss first, logged it and took
 * the primary's position as the floor: then that floor. Never the position Redis lost, nor nothing.
 */
async function firstLookupAfterLoss(sut: WritePositions, caller: string, messages: string[], floor: string): Promise<void> {
  const next = await sut.lastWrite(caller);
  const seenByCheck = messages.some((message) => message.startsWith("read-your-writes: Redis no longer holds the callers' positions"));
  expect(seenByCheck ? ['unknown', floor] : ['unknown']).toContain(next === 'unknown' ? next : text(next));
}

/** Callers' last write positions, shared by the replicas of an app in Redis (read-your-writes). */
describe('Write positions in Redis', () => {
  const stores: WritePositions[] = [];
  const store = async (options: { ttlMs?: number; url?: string; replicas?: Replicas; logger?: pino.Logger } = {}) => {
    // settleMs 0: whatever the epoch's age, nothing it lost matters here (no floor).
    const positions = await WritePositions.connect(
      options.ttlMs ?? 60_000,
      options.url ?? TEST_REDIS_URL,
      options.replicas ?? new Replicas(0),
      options.logger ?? silent,
    );
    stores.push(positions);
    return positions;
  };
  afterAll(() => Promise.all(stores.map((positions) => positions.close())));

  it("keeps the later position of each domain whatever order two replicas store a caller's writes in", async () => {
    const caller = `caller-${randomUUID()}`;
    const [first, second, reader] = [await store(), await store(), await store()];

    await first.wrote(caller, position('0-1-9,1-1-2'));
    await second.wrote(caller, position('0-1-5,2-1-4'));

    expect(text(await reader.lastWrite(caller))).toBe('0-1-9,1-1-2,2-1-4');
    expect(text(await reader.lastWrite(`someone-else-${randomUUID()}`))).toBe('');
  });

  it('compares sequence numbers beyond 2^53 exactly', async () => {
    const caller = `caller-${randomUUID()}`;
    const [writer, reader] = [await store(), await store()];

    await writer.wrote(caller, position('0-1-9007199254740993'));
    await writer.wrote(caller, position('0-1-9007199254740992'));

    expect(text(await reader.lastWrite(caller))).toBe('0-1-9007199254740993');
  });

  it("forgets a caller's write once a replica can no longer lag behind it", async () => {
    const caller = `caller-${randomUUID()}`;
    const [writer, reader] = [await store({ ttlMs: 300 }), await store({ ttlMs: 300 })];

    await writer.wrote(caller, position('0-1-1'));
    expect(text(await reader.lastWrite(caller))).toBe('0-1-1');
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(text(await reader.lastWrite(caller))).toBe('');
    expect(text(await writer.lastWrite(caller))).toBe('');
  });

  it('shares a write that Redis took without waiting for the replicas', async () => {
    const replicas = new Replicas(0);
    const sut = await store({ replicas });

    await sut.wrote(`caller-${randomUUID()}`, position('0-1-3'));

    expect(replicas.waited).toEqual([]);
  });

  it('never fails a request when Redis is unreachable: a lookup is unknown (the read goes to the primary), a write waits for the replicas', async () => {
    const caller = `caller-${randomUUID()}`;
    const replicas = new Replicas(0);
    const sut = await store({ url: `redis://127.0.0.1:${await freePort()}`, replicas });

    await expect(sut.wrote(caller, position('0-1-3'))).resolves.toBeUndefined();

    expect(await sut.lastWrite(caller)).toBe('unknown');
    expect(replicas.waited).toEqual(['0-1-3']);
  });

  describe('on a Redis of its own', () => {
    let redis: RedisServer;
    let admin: Redis;

    beforeAll(async () => {
      redis = await startRedisServer({ name: 'write-positions' });
      admin = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => 200 });
    });
    afterAll(async () => {
      await Promise.all(stores.splice(0).map((positions) => positions.close()));
      admin?.disconnect();
      await redis?.close();
    });

    it('once Redis restarted empty, knows nothing until it checked, then makes every read wait for where the primary was', async () => {
      const caller = `caller-${randomUUID()}`;
      const replicas = new Replicas(60_000);
      const [writer, reader] = [await store({ url: redis.url, replicas }), await store({ url: redis.url, replicas })];
      await writer.wrote(caller, position('0-1-5'));
      expect(await known(reader, caller)).toBe('0-1-5');

      await redis.kill();
      expect(await reader.lastWrite(caller)).toBe('unknown');
      replicas.primary = '0-1-9';
      await redis.start();

      expect(await known(reader, caller)).toBe('0-1-9');
      expect(await known(reader, `someone-else-${randomUUID()}`)).toBe('0-1-9');
    });

    it('sees at its next lookup a Redis that lost its keys without closing the connection', async () => {
      const caller = `caller-${randomUUID()}`;
      const replicas = new Replicas(60_000);
      const { logger, messages } = recordingLogger();
      const sut = await store({ url: redis.url, replicas, logger });
      await sut.wrote(caller, position('0-1-20'));
      expect(await known(sut, caller)).toMatch(/0-1-20/);

      replicas.primary = '0-1-30';
      await admin.flushall();

      await firstLookupAfterLoss(sut, caller, messages, '0-1-30');
      expect(await known(sut, caller)).toBe('0-1-30');
    });

    it('sees at its next lookup a Redis that evicted keys to stay within its maxmemory (volatile-lru takes the positions first)', async () => {
      const caller = `caller-${randomUUID()}`;
      const replicas = new Replicas(60_000);
      const { logger, messages } = recordingLogger();
      const [writer, reader] = [await store({ url: redis.url, replicas }), await store({ url: redis.url, replicas, logger })];
      await writer.wrote(caller, position('0-1-70'));
      expect(await known(reader, caller)).toBe('0-1-70');
      replicas.primary = '0-1-80';

      // Another user of the same Redis fills it with keys that expire, as the positions do: the least recently used go.
      // Redis's LRU is sampled, by the second: filled until the position is among those that went, not a fixed amount.
      const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
      await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
      await admin.config('SET', 'maxmemory', String(used + 256 * 1024));
      try {
        for (let batch = 0; batch < 20 && (await admin.exists(`read-your-writes:${caller}`)); batch++) {
          const filler = admin.pipeline();
          for (let i = 0; i < 2_000; i++) filler.set(`filler:${caller}:${batch}:${i}`, 'x'.repeat(500), 'PX', 60_000);
          await filler.exec();
        }
        expect(await admin.get(`read-your-writes:${caller}`)).toBeNull();

        await firstLookupAfterLoss(reader, caller, messages, '0-1-80');
        expect(await known(reader, caller)).toBe('0-1-80');
      } finally {
        await admin.config('SET', 'maxmemory', '0');
        await admin.config('SET', 'maxmemory-policy', 'noeviction');
      }
    });

    it('sees, by its own check, an epoch another Redis server process stamped (a snapshot loaded, a failover)', async () => {
      const replicas = new Replicas(60_000);
      const sut = await store({ url: redis.url, replicas });
      replicas.primary = '0-1-40';
      await admin.set('read-your-writes-epoch', `${'f'.repeat(40)}:1`);

      await new Promise((done) => setTimeout(done, 1_500));

      expect(await known(sut, `caller-${randomUUID()}`)).toBe('0-1-40');
    });

    it('trusts no Redis that stopped being the master, nor one promoted again after a full sync, on a connection that stayed open', async () => {
      const other = await startRedisServer({ name: 'write-positions-other' });
      const otherAdmin = new Redis(other.url, { maxRetriesPerRequest: 0, retryStrategy: () => 200 });
      try {
        const caller = `caller-${randomUUID()}`;
        const replicas = new Replicas(60_000);
        const [writer, reader] = [await store({ url: redis.url, replicas }), await store({ url: redis.url, replicas })];
        await writer.wrote(caller, position('0-1-50'));
        expect(await known(reader, caller)).toBe('0-1-50');

        // A failover that lost the write's position: the other server had replicated everything but that write (the
        // epoch key too), took over, and this one follows it now; the apps' connections stay open (no Sentinel kills them).
        await otherAdmin.set('read-your-writes-epoch', (await admin.get('read-your-writes-epoch'))!);
        await otherAdmin.config('SET', 'repl-diskless-sync-delay', '0');
        await admin.replicaof('127.0.0.1', other.port);
        for (let i = 0; i < 200 && !String(await admin.info('replication')).includes('master_link_status:up'); i++)
          await new Promise((done) => setTimeout(done, 50));
        expect(String(await admin.info('replication'))).toContain('master_link_status:up');
        expect(await admin.get(`read-your-writes:${caller}`)).toBeNull();

        expect(await reader.lastWrite(caller)).toBe('unknown');
        await new Promise((done) => setTimeout(done, 1_500));
        expect(await reader.lastWrite(caller)).toBe('unknown');

        // Failed back: this one is the master again, with the other's data.
        replicas.primary = '0-1-60';
        await admin.replicaof('NO', 'ONE');

        expect(await known(reader, caller)).toBe('0-1-60');
      } finally {
        await admin.replicaof('NO', 'ONE');
        otherAdmin.disconnect();
        await other.close();
      }
    });

    it('takes no floor when it starts on a Redis that lost nothing within the settle time', async () => {
      await admin.flushall();
      const first = await store({ url: redis.url, replicas: new Replicas(60_000) });
      expect(await known(first, `caller-${randomUUID()}`)).not.toBe('');
      await new Promise((done) => setTimeout(done, 300));

      const later = await store({ url: redis.url, replicas: new Replicas(200) });

      expect(await known(later, `caller-${randomUUID()}`)).toBe('');
    });
  });
});

import { GtidPosition } from '@app/domain';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { WritePositions } from '../../libs/platform/src/database/write-positions';
import { freePort } from '../support/free-port';
import { TEST_REDIS_URL } from '../support/test-redis';

const position = (text: string) => GtidPosition.parse(text)!;
const silent = pino({ level: 'silent' });

/** Callers' last write positions, shared by the replicas of an app in the real Redis (read-your-writes). */
describe('Write positions in Redis', () => {
  const stores: WritePositions[] = [];
  const store = async (ttlMs = 60_000, url = TEST_REDIS_URL) => {
    const positions = await WritePositions.connect(ttlMs, url, silent);
    stores.push(positions);
    return positions;
  };
  afterAll(() => Promise.all(stores.map((positions) => positions.close())));

  it("keeps the later position of each domain whatever order two replicas store a caller's writes in", async () => {
    const caller = `caller-${randomUUID()}`;
    const [first, second, reader] = [await store(), await store(), await store()];

    await first.wrote(caller, position('0-1-9,1-1-2'));
    await second.wrote(caller, position('0-1-5,2-1-4'));

    expect((await reader.lastWrite(caller))?.toString()).toBe('0-1-9,1-1-2,2-1-4');
    expect(await reader.lastWrite(`someone-else-${randomUUID()}`)).toBeUndefined();
  });

  it('compares sequence numbers beyond 2^53 exactly', async () => {
    const caller = `caller-${randomUUID()}`;
    const [writer, reader] = [await store(), await store()];

    await writer.wrote(caller, position('0-1-9007199254740993'));
    await writer.wrote(caller, position('0-1-9007199254740992'));

    expect((await reader.lastWrite(caller))?.toString()).toBe('0-1-9007199254740993');
  });

  it("forgets a caller's write once a replica can no longer lag behind it", async () => {
    const caller = `caller-${randomUUID()}`;
    const [writer, reader] = [await store(300), await store(300)];

    await writer.wrote(caller, position('0-1-1'));
    expect((await reader.lastWrite(caller))?.toString()).toBe('0-1-1');
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(await reader.lastWrite(caller)).toBeUndefined();
    expect(await writer.lastWrite(caller)).toBeUndefined();
  });

  it('never fails a request when Redis is unreachable: what this process saw still counts', async () => {
    const caller = `caller-${randomUUID()}`;
    const sut = await store(60_000, `redis://127.0.0.1:${await freePort()}`);

    await expect(sut.wrote(caller, position('0-1-3'))).resolves.toBeUndefined();

    expect((await sut.lastWrite(caller))?.toString()).toBe('0-1-3');
  });
});

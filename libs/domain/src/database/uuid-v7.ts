import { randomFillSync } from 'node:crypto';

/**
 * A new row id: a version-7 UUID (RFC 9562), canonical lower-case text.
 *
 * Its first 48 bits are the Unix time in milliseconds, so ids made later sort later, as text and as
 * bytes. InnoDB clusters a table on its primary key: a random (version-4) id lands each insert on a
 * random page of the whole table, which must be read from disk once the table outgrows the buffer pool;
 * time-ordered ids land every insert on the few pages at the table's newest end (docs/performance.md,
 * "Creates at 1m connectors").
 *
 * Within one process the ids only increase (RFC 9562 §6.2, method 1): `rand_a`, the 12 bits after the
 * version, counts the ids of one millisecond from a random start below 2,048, and a millisecond that
 * runs out of counts (or a clock that steps back) borrows the next one. The last 62 bits are random.
 */
export function newUuid(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = ((randomByte() << 8) | randomByte()) & 0x7ff;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  for (let i = 8; i < 16; i++) bytes[i] = randomByte();
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const bytes = Buffer.alloc(16);
let lastMs = -1;
let counter = 0;

/** Random bytes drawn from a pool filled 4 KiB at a time, like node's randomUUID: a fill costs a call into C++. */
const pool = Buffer.alloc(4096);
let drawn = pool.length;

function randomByte(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++];
}

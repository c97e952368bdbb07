import { InvalidInputError, SecretCipher } from '@app/domain';
import { randomUUID } from 'node:crypto';
import { EVENT_CURSOR_LENGTH, EventCursors } from './event-cursors';

const KEY = Buffer.alloc(32, 1);
const OTHER_KEY = Buffer.alloc(32, 2);
const FEED = { orgUUID: randomUUID(), envUUID: randomUUID() };

/** The problems of the 400 `read` throws. */
function refusal(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (error instanceof InvalidInputError) return error.problems;
    throw error;
  }
  throw new Error('the cursor was read');
}

describe(EventCursors.name, () => {
  const sut = new EventCursors(new SecretCipher(KEY));

  it('reads back the position it wrote, in opaque base64url that differs every time', () => {
    const first = sut.write(1042, FEED);
    const second = sut.write(1042, FEED);
    expect(first).toMatch(new RegExp(`^[A-Za-z0-9_-]{${EVENT_CURSOR_LENGTH}}$`));
    expect(first).not.toBe(second);
    expect(first).not.toContain('1042');
    expect(sut.read(first, FEED)).toBe(1042);
    expect(sut.read(second, FEED)).toBe(1042);
    expect(sut.read(sut.write(2 ** 53 - 1, FEED), FEED)).toBe(2 ** 53 - 1);
  });

  it("refuses another environment's cursor, and one changed by a bit", () => {
    const cursor = sut.write(7, FEED);
    expect(refusal(() => sut.read(cursor, { ...FEED, envUUID: randomUUID() }))[0]).toMatch(
      /^after must be a cursor a previous answer of this environment's feed gave/,
    );
    expect(refusal(() => sut.read(cursor, { ...FEED, orgUUID: randomUUID() }))[0]).toMatch(/^after must be a cursor/);
    const flipped = Buffer.from(cursor, 'base64url');
    flipped[14] ^= 1;
    expect(refusal(() => sut.read(flipped.toString('base64url'), FEED))[0]).toMatch(/^after must be a cursor/);
    expect(refusal(() => sut.read('abc', FEED))[0]).toMatch(/^after must be a cursor/);
  });

  it('refuses the numeric cursors of before, saying how to go on', () => {
    expect(refusal(() => sut.read('1042', FEED))).toEqual([
      expect.stringMatching(/^after: numeric cursors are no longer accepted .* without after .* after=now/),
    ]);
  });

  it('reads the cursors another replica wrote with the same key, and those of the previous key during a rotation', () => {
    const written = new EventCursors(new SecretCipher(OTHER_KEY)).write(99, FEED);
    expect(new EventCursors(new SecretCipher(OTHER_KEY)).read(written, FEED)).toBe(99);
    expect(new EventCursors(new SecretCipher(KEY, OTHER_KEY)).read(written, FEED)).toBe(99);
    expect(refusal(() => new EventCursors(new SecretCipher(KEY)).read(written, FEED))[0]).toMatch(/^after must be a cursor/);
  });
});

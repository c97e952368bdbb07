import { EnvironmentPath, InvalidInputError, SecretCipher } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
/** The info of the cursors' key (SecretCipher.derivedKeys); a new shape of cursor gets a new one. */
const PURPOSE = 'connector-events feed cursor v1';
const NONCE_BYTES = 12;
const POSITION_BYTES = 8;
const TAG_BYTES = 16;
/** A cursor's length: nonce, position and tag in base64url. */
export const EVENT_CURSOR_LENGTH = Math.ceil(((NONCE_BYTES + POSITION_BYTES + TAG_BYTES) * 4) / 3);

/**
 * The feed's cursors: an outbox position sealed with AES-256-GCM under a key derived from SECRETS_KEY (every replica
 * reads every other's; SECRETS_KEY_PREVIOUS's cursors still read during a rotation), a random nonce each time, the
 * organization and environment bound as associated data. A cursor tells nothing (the positions count every
 * tenant's writes), two cursors of one position differ, and a cursor works only on the feed of the environment that
 * gave it (docs/decisions.md, "Change events").
 */
@Injectable()
export class EventCursors {
  private readonly keys: Buffer[];

  constructor(cipher: SecretCipher) {
    this.keys = cipher.derivedKeys(PURPOSE);
  }

  /** The cursor of `position` in the feed of `feed`'s environment. */
  write(position: number, feed: EnvironmentPath): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keys[0], nonce);
    cipher.setAAD(contextOf(feed));
    const plain = Buffer.alloc(POSITION_BYTES);
    plain.writeBigUInt64BE(BigInt(position));
    return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString('base64url');
  }

  /** The position a cursor of this feed holds; a 400 saying how to go on for anything else. */
  read(cursor: string, feed: EnvironmentPath): number {
    if (/^\d+$/.test(cursor)) throw new InvalidInputError([NUMERIC_CURSOR]);
    const sealed = Buffer.from(cursor, 'base64url');
    if (cursor.length === EVENT_CURSOR_LENGTH && sealed.length === NONCE_BYTES + POSITION_BYTES + TAG_BYTES) {
      for (const key of this.keys) {
        const position = opened(sealed, key, contextOf(feed));
        if (position !== undefined) return position;
      }
    }
    throw new InvalidInputError([NOT_THIS_FEEDS]);
  }
}

const NUMERIC_CURSOR =
  'after: numeric cursors are no longer accepted (cursors are opaque now): follow the feed again without after (from the oldest event kept), ' +
  "skipping the events you already have (by the event's id, or by data.version per connector), or with after=now for only what comes next";
const NOT_THIS_FEEDS =
  "after must be a cursor a previous answer of this environment's feed gave (an answer's or an event's cursor, unchanged), or now; " +
  'a cursor sealed with a key the replicas no longer hold (SECRETS_KEY rotated twice since) is refused too: follow the feed again without after, ' +
  'skipping the events you already have, or with after=now';

const contextOf = ({ orgUUID, envUUID }: EnvironmentPath) => Buffer.from(`connector-events:${orgUUID}:${envUUID}`, 'utf8');

/** The position sealed in `sealed` with `key` and `context`, or undefined when it was not. */
function opened(sealed: Buffer, key: Buffer, context: Buffer): number | undefined {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(context);
    decipher.setAuthTag(sealed.subarray(NONCE_BYTES + POSITION_BYTES));
    const plain = Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, NONCE_BYTES + POSITION_BYTES)), decipher.final()]);
    return Number(plain.readBigUInt64BE());
  } catch {
    return undefined;
  }
}

import { entityRows } from '../database/table-rows';
import { Column, Entity, Index } from 'typeorm';
import { BinaryKeyPrimaryColumn, LargeJsonColumn, TimestampColumn } from '../database/columns';

export type IdempotencyState = 'in_progress' | 'completed';
/** A stored answer: a flat JSON object (a create answers `{ uuid }`). */
export type StoredAnswer = { [field: string]: string | number | boolean | null };

/**
 * A create sent with an `Idempotency-Key`, per caller: what it asked (a fingerprint of method, path and
 * body) and, once done, what it answered. In the database, so a retry reaching another replica is
 * answered the same. Kept 24 hours.
 */
@Entity('idempotency_keys')
@Index('idx_idempotency_keys_expires_at', ['expiresAt'])
export class IdempotencyKey {
  /** Compared byte for byte: `sub` is case-sensitive (RFC 7519), and so are keys. */
  @BinaryKeyPrimaryColumn(255)
  callerSub: string;

  @BinaryKeyPrimaryColumn(255)
  idempotencyKey: string;

  /** SHA-256 (hex) of the request: the same key with another request is a 422. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 16 })
  state: IdempotencyState;

  @Column({ type: 'integer', nullable: true })
  responseStatus: number | null;

  @LargeJsonColumn({ nullable: true })
  responseBody: StoredAnswer | null;

  /** When the request in progress took the key; one that never finished is taken over after a while. */
  @TimestampColumn()
  lockedAt: Date;

  @TimestampColumn()
  expiresAt: Date;
}

/** The rows of idempotency_keys, read from the decorators above (see TableRows). */
export const IDEMPOTENCY_KEY_ROWS = entityRows(IdempotencyKey);

/**
 * A MariaDB replication position: for each replication domain, the last transaction (`domain-server-seq`,
 * as `@@gtid_binlog_pos`, `@@gtid_current_pos` and `@@last_gtid` print it). A server has applied a write when
 * its position covers the write's: in every domain of the write, a sequence number at least as high.
 * Sequence numbers are 64-bit: kept as bigint.
 */
export class GtidPosition {
  /** The longest position accepted from outside (a Consistency-Token): 16 domains. */
  static readonly MAX_DOMAINS = 16;
  static readonly EMPTY = new GtidPosition(new Map());

  private constructor(private readonly domains: ReadonlyMap<number, { server: number; seq: bigint }>) {}

  /** `0-1-42,1-2-7`; `''` is the empty position. Undefined when the text is not a position. */
  static parse(text: string): GtidPosition | undefined {
    const trimmed = text.trim();
    if (trimmed === '') return GtidPosition.EMPTY;
    const parts = trimmed.split(',');
    if (parts.length > GtidPosition.MAX_DOMAINS) return undefined;
    const domains = new Map<number, { server: number; seq: bigint }>();
    for (const part of parts) {
      const match = /^(\d{1,10})-(\d{1,10})-(\d{1,20})$/.exec(part.trim());
      if (!match) return undefined;
      const [domain, server, seq] = [Number(match[1]), Number(match[2]), BigInt(match[3])];
      // 32-bit domain and server ids, 64-bit sequence numbers, each domain once.
      if (domain > 0xffffffff || server > 0xffffffff || seq > 0xffffffffffffffffn || domains.has(domain)) return undefined;
      domains.set(domain, { server, seq });
    }
    return new GtidPosition(domains);
  }

  get isEmpty(): boolean {
    return this.domains.size === 0;
  }

  /** Whether a server at this position has applied every transaction up to `other`. */
  covers(other: GtidPosition): boolean {
    for (const [domain, { seq }] of other.domains) {
      const mine = this.domains.get(domain);
      if (mine === undefined || mine.seq < seq) return false;
    }
    return true;
  }

  /**
   * Whether every transaction of `other` is one of this position's history: `covers`, and where the sequence
   * numbers are equal, the same server wrote it. False for a server that has transactions this one never had
   * (it is ahead, or diverged): not a replica of it.
   */
  holds(other: GtidPosition): boolean {
    for (const [domain, { server, seq }] of other.domains) {
      const mine = this.domains.get(domain);
      if (mine === undefined || mine.seq < seq || (mine.seq === seq && mine.server !== server)) return false;
    }
    return true;
  }

  /** The later of the two in every domain: what a reader must see after both writes. */
  merge(other: GtidPosition): GtidPosition {
    if (other.isEmpty || this === other) return this;
    if (this.isEmpty) return other;
    const domains = new Map(this.domains);
    for (const [domain, gtid] of other.domains) {
      const mine = domains.get(domain);
      if (mine === undefined || mine.seq < gtid.seq) domains.set(domain, gtid);
    }
    return new GtidPosition(domains);
  }

  equals(other: GtidPosition): boolean {
    return this.covers(other) && other.covers(this);
  }

  toString(): string {
    return [...this.domains]
      .sort(([a], [b]) => a - b)
      .map(([domain, { server, seq }]) => `${domain}-${server}-${seq}`)
      .join(',');
  }
}

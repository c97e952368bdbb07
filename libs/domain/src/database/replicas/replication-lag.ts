import { GtidPosition } from './gtid-position';

/**
 * How far a replica is behind, measured by the platform itself: the primary's position is sampled on every
 * probe, each new position with the time it was first seen; a replica's lag is the age of the oldest sampled
 * position it has not applied (0 when it has the latest). Unlike `Seconds_Behind_Master` it is never NULL
 * (a stopped SQL thread falls further behind like any other lag), and a replica of an idle primary that has
 * everything is 0 behind, whatever its threads do. The lag is seen at most one probe interval late.
 */
export class ReplicationLag {
  private readonly samples: Array<{ at: number; position: GtidPosition }> = [];

  /** Samples older than this are dropped (the newest is always kept): longer than any lag worth telling apart. */
  constructor(private readonly keepMs: number) {}

  /** The primary's position as a probe read it at `at`. */
  sample(position: GtidPosition, at: number): void {
    const newest = this.samples.at(-1);
    if (!newest || !newest.position.equals(position)) this.samples.push({ at, position });
    while (this.samples.length > 1 && this.samples[0].at < at - this.keepMs) this.samples.shift();
  }

  /** The primary's latest known position; undefined before the first sample. */
  get primary(): GtidPosition | undefined {
    return this.samples.at(-1)?.position;
  }

  /** Milliseconds a replica at `position` is behind at `now`; undefined before the primary was ever sampled. */
  of(position: GtidPosition, now: number): number | undefined {
    if (this.samples.length === 0) return undefined;
    const oldestMissing = this.samples.find((sample) => !position.covers(sample.position));
    return oldestMissing === undefined ? 0 : Math.max(0, now - oldestMissing.at);
  }
}

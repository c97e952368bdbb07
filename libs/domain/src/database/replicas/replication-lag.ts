import { GtidPosition } from './gtid-position';

/**
 * How far a replica is behind, measured by the platform itself. The primary's position is sampled on every
 * probe; each new position is kept with the time the primary was last seen WITHOUT it (the previous sample):
 * its transactions committed after that. A replica that lacks a sampled position has missed writes since at
 * least that time, so its lag is counted from then, never less than the truth (a write not sampled yet is at
 * most one probe interval old). Unlike `Seconds_Behind_Master` it is never NULL (a stopped SQL thread falls
 * further behind like any other lag), and a replica that has everything of an idle primary is 0 behind. What the
 * first sample holds committed at times nobody here saw: a replica without all of it has an unknown lag (it may be
 * hours behind), not one counted from this process's start.
 */
export class ReplicationLag {
  /** `since` is null for the first sample only (the primary was never seen without it). */
  private readonly samples: Array<{ since: number | null; position: GtidPosition }> = [];
  private lastSampleAt: number | undefined;

  /** Samples older than this are dropped (the newest is always kept): longer than any lag worth telling apart. */
  constructor(private readonly keepMs: number) {}

  /** The primary's position as a probe read it at `at`. */
  sample(position: GtidPosition, at: number): void {
    const newest = this.samples.at(-1);
    if (!newest || !newest.position.equals(position)) this.samples.push({ since: this.lastSampleAt ?? null, position });
    this.lastSampleAt = Math.max(this.lastSampleAt ?? at, at);
    while (this.samples.length > 1 && this.samples[1].since! < at - this.keepMs) this.samples.shift();
  }

  /**
   * Since when a replica at `position` has been missing writes: undefined when it has every sampled one, null
   * when that is unknown (the primary was never sampled, or the replica lacks part of the first sample).
   */
  missingSince(position: GtidPosition): number | undefined | null {
    if (this.samples.length === 0) return null;
    return this.samples.find((sample) => !position.covers(sample.position))?.since;
  }

  /** Whether the primary was ever sampled. */
  get sampled(): boolean {
    return this.samples.length > 0;
  }

  /** Milliseconds a replica at `position` is behind at `now`; null before the primary was ever sampled. */
  of(position: GtidPosition, now: number): number | null {
    return lagAt(this.missingSince(position), now);
  }
}

/** The lag at `now` of a replica missing writes since `since` (ReplicationLag.missingSince): 0 when it misses none. */
export function lagAt(since: number | undefined | null, now: number): number | null {
  if (since === null) return null;
  return since === undefined ? 0 : Math.max(0, now - since);
}

import { GtidPosition } from './gtid-position';

/**
 * What is known of a caller's last write: the position its reads must see (EMPTY when it wrote nothing recently), or
 * `'unknown'` when that cannot be known (where positions are shared did not answer): its reads then go to the primary.
 */
export type LastWrite = GtidPosition | 'unknown';

/**
 * What the reads of one unit of work (an HTTP request) must see, and what it wrote. With replicas the platform
 * makes one per request and hands it down explicitly: a read passes it as its `ReadFrom` (Database picks a replica
 * that has what it must see), a transaction as its scope (Database records where it committed). Not an
 * AsyncLocalStorage: Node 20's promise hooks cost every request of an app with replicas about 0.08 ms of CPU
 * (docs/performance.md, "Read replicas"). Outside a request (the CLI, migrations) reads carry no requirement.
 */
export class ConsistencyScope {
  private required = GtidPosition.EMPTY;
  private pending: Promise<void> | undefined;
  private wrote: GtidPosition | undefined;
  private primary = false;
  private recorder: ((writes: GtidPosition) => Promise<void>) | undefined;
  private recording: Promise<void> = Promise.resolve();

  /** Reads from now on must see `position` (a Consistency-Token the caller sent). */
  require(position: GtidPosition): void {
    this.required = this.required.merge(position);
  }

  /**
   * Reads must see the caller's last write: known now, or looked up while the request goes through its other checks.
   * When it is `'unknown'`, or the lookup fails, the unit's reads go to the primary: a write of the caller may be on
   * no replica yet.
   */
  requireLast(last: LastWrite | Promise<LastWrite>): void {
    if (!(last instanceof Promise)) return this.requireKnown(last);
    const looked = last.then(
      (known) => this.requireKnown(known),
      () => this.requireKnown('unknown'),
    );
    this.pending = this.pending ? Promise.all([this.pending, looked]).then(() => undefined) : looked;
  }

  private requireKnown(last: LastWrite): void {
    if (last === 'unknown') this.primary = true;
    else this.require(last);
  }

  /**
   * What a read must see now: at once when nothing is being looked up (most reads: no promise, no await), else
   * once the lookup answers (concurrent reads of the unit all wait for the same one).
   */
  requirement(): GtidPosition | Promise<GtidPosition> {
    const pending = this.pending;
    return pending ? pending.then(() => this.required) : this.required;
  }

  /**
   * Who hears of the unit's writes (the platform: the caller's stored position and the Consistency-Token answer):
   * `recorder` gets everything the unit has written so far after each write, and must not fail.
   */
  onWrite(recorder: (writes: GtidPosition) => Promise<void>): void {
    this.recorder = recorder;
  }

  /** A write of this unit committed at `position`: later reads of the unit see it, and the recorder hears of it. */
  written(position: GtidPosition): void {
    const writes = (this.wrote ?? GtidPosition.EMPTY).merge(position);
    this.wrote = writes;
    this.require(position);
    const recorder = this.recorder;
    if (recorder) this.recording = this.recording.then(() => recorder(writes));
  }

  /** Settles once every write so far has been recorded: the write's caller waits for it before it answers. */
  recorded(): Promise<void> {
    return this.recording;
  }

  /**
   * A write of this unit committed, but where could not be read (the primary stopped answering right after):
   * the unit's later reads go to the primary.
   */
  writtenSomewhere(): void {
    this.primary = true;
  }

  /**
   * Whether the unit's reads must go to the primary: it wrote at a position it could not read, or the caller's last
   * write is unknown. Final once `requirement()` has answered.
   */
  get primaryOnly(): boolean {
    return this.primary;
  }
}

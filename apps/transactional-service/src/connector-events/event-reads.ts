import { EVENT_READ_BYTES, EventRange, EventSize, RecordedEvent } from '@app/domain';
import { ServiceUnavailableException } from '@nestjs/common';
import { ByteBudget, ByteBudgetTimeoutError } from './byte-budget';

/** What an event adds to its stored content in an answer or a message: ids, source, type, time, ETag, its cursor. */
export const EVENT_ENVELOPE_BYTES = 1024;
/**
 * What the feed's reads of one process hold at once (pages until their answer has left): three full reads, about
 * 40 MB of heap at their peak (text, parsed objects, the answer's JSON), and the relay's one batch (its own budget,
 * RELAY_READS_IN_FLIGHT_BYTES) about 13 MB more, beside the ~40 MB the app lives on, within the image's 128 MB.
 */
export const EVENT_READS_IN_FLIGHT_BYTES = 3 * EVENT_READ_BYTES;
/**
 * What the relay's reads hold at once (a batch until published; it reads one at a time): a budget of its own, so that
 * feed pages whose callers do not read them (held up to FEED_SEND_MS each) never hold publishing back.
 */
export const RELAY_READS_IN_FLIGHT_BYTES = EVENT_READ_BYTES;
/** The relay's EventReads (RELAY_READS_IN_FLIGHT_BYTES); the feed's is the class itself. */
export const RELAY_EVENT_READS = Symbol('RELAY_EVENT_READS');
/**
 * What one organization's feed reads hold at once in a process: one full page. Its next read waits for it, so a tenant
 * whose clients do not read their answers holds a third of the feed's budget at most, never all of it.
 */
export const TENANT_READS_IN_FLIGHT_BYTES = EVENT_READ_BYTES;
/** How long a read waits for room among the reads in flight: past it, a feed read is a 503 (Retry-After) and the relay backs off. */
export const EVENT_READ_WAIT_MS = 10_000;

/** Where a read takes its events from: what they weigh first, then the ones that fit (a scope's feed, or the relay's range). */
export interface EventSource {
  sizes(range: EventRange): Promise<EventSize[]>;
  events(range: EventRange): Promise<RecordedEvent[]>;
}

/** The events of one bounded read. */
export interface EventBatch {
  events: RecordedEvent[];
  /** Every event of the source up to this position is in `events` (or was purged meanwhile): where the next read starts. */
  through: number;
  /** Gives the batch's bytes back; call it once its events have left the process (answered, published). */
  release(): void;
}

const NOTHING_HELD = () => undefined;

/**
 * Reads change events bounded in bytes, for the feed and the relay alike: it weighs a range first (positions and
 * sizes, no content), loads only the events that fit in EVENT_READ_BYTES (the first one whatever its size, so a
 * read always advances), and holds their bytes in a budget (the feed's EVENT_READS_IN_FLIGHT_BYTES, the relay's own)
 * until the caller releases them. What the process loads is so bounded before it loads it, however large the events
 * and however many reads come at once.
 */
export class EventReads {
  private readonly budget: ByteBudget;
  /** Each tenant's share (TENANT_READS_IN_FLIGHT_BYTES), while it holds or waits for any. */
  private readonly tenants = new Map<string, ByteBudget>();

  constructor(capacity = EVENT_READS_IN_FLIGHT_BYTES) {
    this.budget = new ByteBudget(capacity);
  }

  /**
   * The first events of `range` that fit; `through` is `range.through` when they are all it holds. Throws a 503
   * (ServiceUnavailableException) when the budget had no room within EVENT_READ_WAIT_MS; `signal` (its caller left)
   * ends the wait, and the read then reads nothing: nobody will see its answer, which is no error. With `tenant` (the
   * feed's organization), the bytes are taken from the tenant's share first, then from the budget: one tenant's reads
   * wait behind each other, not in front of another tenant's.
   */
  async read(source: EventSource, range: EventRange, signal?: AbortSignal, tenant?: string): Promise<EventBatch> {
    const nothing = { events: [], through: range.after, release: NOTHING_HELD };
    if (range.through <= range.after) return nothing;
    const sizes = await source.sizes(range);
    const { count, bytes } = fitting(sizes);
    if (count === 0) return { events: [], through: range.through, release: NOTHING_HELD };
    const whole = count === sizes.length && sizes.length < range.limit;
    const through = whole ? range.through : sizes[count - 1].position;
    const release = await this.take(bytes, signal, tenant).catch((error: unknown) => {
      if (error instanceof ByteBudgetTimeoutError) {
        throw new ServiceUnavailableException('This replica is busy reading other large change events; retry in a few seconds');
      }
      if (signal?.aborted) return undefined;
      throw error;
    });
    if (release === undefined) return nothing;
    try {
      // Every event in (after, last that fits] and no other: positions are given once, above every earlier one.
      return { events: await source.events({ after: range.after, through: sizes[count - 1].position, limit: count }), through, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** `bytes` from the tenant's share (when named), then from the budget, within one EVENT_READ_WAIT_MS; their release. */
  private async take(bytes: number, signal?: AbortSignal, tenant?: string): Promise<() => void> {
    if (tenant === undefined) return this.budget.take(bytes, EVENT_READ_WAIT_MS, signal);
    const share = this.tenants.get(tenant) ?? new ByteBudget(TENANT_READS_IN_FLIGHT_BYTES);
    this.tenants.set(tenant, share);
    const forget = () => {
      if (share.idle && this.tenants.get(tenant) === share) this.tenants.delete(tenant);
    };
    const started = Date.now();
    let releaseShare: () => void;
    try {
      releaseShare = await share.take(bytes, EVENT_READ_WAIT_MS, signal);
    } catch (error) {
      forget();
      throw error;
    }
    try {
      const releaseBudget = await this.budget.take(bytes, Math.max(0, EVENT_READ_WAIT_MS - (Date.now() - started)), signal);
      return () => {
        releaseBudget();
        releaseShare();
        forget();
      };
    } catch (error) {
      releaseShare();
      forget();
      throw error;
    }
  }
}

/** How many of the first events fit in EVENT_READ_BYTES (at least one when there is one), and what they weigh. */
function fitting(sizes: EventSize[]): { count: number; bytes: number } {
  let bytes = 0;
  let count = 0;
  for (const size of sizes) {
    const weight = size.bytes + EVENT_ENVELOPE_BYTES;
    if (count > 0 && bytes + weight > EVENT_READ_BYTES) break;
    bytes += weight;
    count += 1;
  }
  return { count, bytes };
}

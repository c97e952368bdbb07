import { TestApp } from '../support/test-app';
import { bearer } from '../support/tokens';

export interface FeedEvent {
  cursor: string;
  event: {
    specversion: string;
    id: string;
    source: string;
    type: string;
    subject: string;
    time: string;
    datacontenttype: string;
    data: {
      version: number;
      etag: string;
      operation: string;
      changedFields: string[];
      updatedBy: string;
      reason: string | null;
      revertedTo: number | null;
      promotionId: string | null;
      snapshot: Record<string, unknown>;
    };
  };
}

/** Where the outbox holds an event the feed answered (its cursor is opaque): for tests that move the relay's counters around it. */
export async function positionOf(sut: TestApp, { event }: FeedEvent): Promise<number> {
  const [row] = await sut.dataSource.query('SELECT position FROM connector_events WHERE event_uuid = ?', [event.id]);
  if (!row) throw new Error(`event ${event.id} is not in the outbox`);
  return Number(row.position);
}

/** The change feed of an environment, as a client follows it: `after` the last cursor, long polls while nothing comes. */
export class FeedConsumer {
  readonly events: FeedEvent[] = [];
  cursor: string | undefined;

  constructor(
    private readonly sut: TestApp,
    private readonly token: string,
    private readonly feedPath: string,
    private readonly query: Record<string, string | number> = {},
  ) {}

  /** Starts at what the feed has numbered now: the consumer gets only the events numbered after this. */
  async fromNow(): Promise<this> {
    this.cursor = 'now';
    await this.next();
    return this;
  }

  /** One answer of the feed after the consumer's cursor, kept; its cursor becomes the consumer's. */
  async next(wait = 0, limit = 100): Promise<FeedEvent[]> {
    const query = { ...this.query, limit, wait, ...(this.cursor === undefined ? {} : { after: this.cursor }) };
    const res = await this.sut.http.get(this.feedPath).query(query).set(bearer(this.token));
    if (res.status !== 200) throw new Error(`the feed answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.events.push(...res.body.events);
    this.cursor = res.body.cursor;
    return res.body.events;
  }

  /** Follows the feed until `count` events in all were read (long polls of 10 s; fails after `rounds` answers without enough). */
  async until(count: number, rounds = 200): Promise<FeedEvent[]> {
    for (let round = 0; this.events.length < count; round++) {
      if (round === rounds) throw new Error(`the feed gave ${this.events.length} events of ${count} after ${rounds} answers`);
      await this.next(10, 1000);
    }
    return this.events;
  }

  /**
   * What a consumer checks: no event twice (by id), and per connector the versions 1, 2, 3… in order without a gap
   * (the consumer follows from the start of the feed).
   */
  problems(): string[] {
    const problems: string[] = [];
    const ids = new Set<string>();
    const lastVersion = new Map<string, number>();
    for (const { event } of this.events) {
      if (ids.has(event.id)) problems.push(`event ${event.id} came twice`);
      ids.add(event.id);
      const previous = lastVersion.get(event.subject) ?? 0;
      if (event.data.version !== previous + 1) problems.push(`connector ${event.subject}: version ${event.data.version} after ${previous}`);
      lastVersion.set(event.subject, event.data.version);
    }
    return problems;
  }
}

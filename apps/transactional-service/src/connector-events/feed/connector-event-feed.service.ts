import { CURSOR_NOW, ConnectorEventFeedDto, ConnectorEventFeedQueryDto, ConnectorEventRepository, EnvironmentPath, FeedScope, ScopeService } from '@app/domain';
import { AnswerHandle, releaseOnceSent } from '@app/platform';
import { Injectable } from '@nestjs/common';
import { cloudEventOf, EventCursorExpiredException } from '../cloud-event';
import { EventBatch, EventReads, EventSource } from '../event-reads';
import { EventCursors } from './event-cursors';
import { EventFeedWatcher } from './event-feed-watcher';

/**
 * How long an answer may take to leave: a client that reads its page slower than this is cut, and the page's bytes
 * go back to the reads in flight (EventReads).
 */
export const FEED_SEND_MS = 30_000;

/**
 * The change feed of an environment: its events in the order the relay numbered them, each with its cursor; a
 * long poll (`wait`) when none is after the cursor, answered at once when the app drains for shutdown. Read on the
 * primary, where the numbers are given. A page is bounded in bytes as well as in count (EventReads), and its bytes
 * are held until its answer has left.
 */
@Injectable()
export class ConnectorEventFeedService {
  constructor(
    private readonly events: ConnectorEventRepository,
    private readonly scope: ScopeService,
    private readonly watcher: EventFeedWatcher,
    private readonly reads: EventReads,
    private readonly cursors: EventCursors,
  ) {}

  async feed(path: EnvironmentPath, query: ConnectorEventFeedQueryDto, callerGone?: AbortSignal, answer?: AnswerHandle): Promise<ConnectorEventFeedDto> {
    const feed = { orgUUID: path.orgUUID, envUUID: path.envUUID };
    const scope: FeedScope = { ...feed, botUUID: query.botUUID };
    // The scope first, always: a path outside the caller's organization is a 404 before the feed says anything of
    // it (a cursor refused, a 410).
    await this.scope.require(scope, 'primary');
    // A cursor this environment's feed gave (400 otherwise) is too old past retention (410); without one, from the
    // oldest event kept; `now`, from what is numbered at the first read.
    const given = query.after === undefined || query.after === CURSOR_NOW ? undefined : this.cursors.read(query.after, feed);
    const source: EventSource = {
      sizes: (range) => this.events.feedSizes(scope, range),
      events: (range) => this.events.feed(scope, range),
    };
    const deadline = Date.now() + query.wait * 1000;
    let after = given ?? (query.after === CURSOR_NOW ? undefined : 0);
    for (;;) {
      // Read before the events: every event numbered up to sequencedThrough is then visible to the read below.
      const { sequencedThrough, purgedThrough } = await this.events.progress();
      after ??= sequencedThrough;
      if (given !== undefined && after < purgedThrough) throw new EventCursorExpiredException();
      const batch = await this.reads.read(source, { after, through: sequencedThrough, limit: query.limit }, callerGone, path.orgUUID);
      const rest = deadline - Date.now();
      if (batch.events.length > 0 || rest <= 0 || callerGone?.aborted || this.watcher.draining) return this.answer(batch, feed, answer);
      // Nothing of the scope up to what is numbered: the next read starts there (a quiet environment's cursor keeps
      // up with the feed, so retention does not overtake it).
      after = Math.max(after, batch.through);
      await this.watcher.waitPast(scope, sequencedThrough, rest, callerGone);
    }
  }

  /** The page, each event with its cursor, and the cursor to go on from; the page's bytes are held until the answer has left. */
  private answer(batch: EventBatch, feed: EnvironmentPath, answer?: AnswerHandle): ConnectorEventFeedDto {
    try {
      const page = {
        events: batch.events.map((event) => ({ cursor: this.cursors.write(event.position, feed), event: cloudEventOf(event) })),
        cursor: this.cursors.write(batch.through, feed),
      };
      releaseOnceSent(answer, FEED_SEND_MS, batch.release);
      return page;
    } catch (error) {
      batch.release();
      throw error;
    }
  }
}

import {
  CURSOR_NOW,
  ConnectorEventFeedDto,
  ConnectorEventFeedQueryDto,
  ConnectorEventRepository,
  EnvironmentPath,
  RecordedEvent,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { cloudEventOf, EventCursorExpiredException } from '../cloud-event';
import { EventFeedWatcher } from './event-feed-watcher';

/**
 * The change feed of an environment: its events in the order the relay numbered them, each with its cursor; a
 * long poll (`wait`) when none is after the cursor, answered at once when the app drains for shutdown. Read on the
 * primary, where the numbers are given.
 */
@Injectable()
export class ConnectorEventFeedService {
  constructor(
    private readonly events: ConnectorEventRepository,
    private readonly scope: ScopeService,
    private readonly watcher: EventFeedWatcher,
  ) {}

  async feed(path: EnvironmentPath, query: ConnectorEventFeedQueryDto, callerGone?: AbortSignal): Promise<ConnectorEventFeedDto> {
    const deadline = Date.now() + query.wait * 1000;
    const scope = { ...path, botUUID: query.botUUID };
    const fromNow = query.after === CURSOR_NOW;
    // A cursor a previous answer gave may be too old (410); without one, from the oldest event kept; `now`, from what is
    // numbered at the first read.
    const cursorGiven = query.after !== undefined && !fromNow;
    let after: number | undefined = cursorGiven ? Number(query.after) : fromNow ? undefined : 0;
    for (;;) {
      // Read before the events: every event numbered up to sequencedThrough is then visible to the read below.
      const { sequencedThrough, purgedThrough } = await this.events.progress();
      after ??= sequencedThrough;
      if (cursorGiven && after < purgedThrough) throw new EventCursorExpiredException(after, purgedThrough);
      const events = (await this.scope.inPath(scope, await this.events.feed(scope, after, query.limit), 'primary')) ?? [];
      const rest = deadline - Date.now();
      if (events.length > 0 || rest <= 0 || callerGone?.aborted || this.watcher.draining) return answer(events, query.limit, after, sequencedThrough);
      await this.watcher.waitPast(scope, sequencedThrough, rest, callerGone);
    }
  }
}

/**
 * The events and the cursor to go on from: the last event's, or, when the answer holds every event of the scope
 * up to what was numbered at the read, that number (a quiet environment's cursor keeps up with the feed, so
 * retention does not overtake it).
 */
function answer(events: RecordedEvent[], limit: number, after: number, sequencedThrough: number): ConnectorEventFeedDto {
  const last = events.length > 0 ? events[events.length - 1].position : after;
  const cursor = events.length < limit ? Math.max(last, sequencedThrough) : last;
  return { events: events.map((event) => ({ cursor: String(event.position), event: cloudEventOf(event) })), cursor: String(cursor) };
}

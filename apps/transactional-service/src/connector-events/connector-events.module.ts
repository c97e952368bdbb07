import { ConnectorEventRepository, DomainModule, ParkedEventRepository } from '@app/domain';
import { Module } from '@nestjs/common';
import { ConnectorEventFeedController } from './feed/connector-event-feed.controller';
import { ConnectorEventFeedService } from './feed/connector-event-feed.service';
import { EventCursors } from './feed/event-cursors';
import { EventFeedWatcher } from './feed/event-feed-watcher';
import { EventReads, RELAY_EVENT_READS, RELAY_READS_IN_FLIGHT_BYTES } from './event-reads';
import { ConnectorEventMetrics } from './relay/connector-event-metrics';
import { ConnectorEventRelay } from './relay/connector-event-relay';
import { EventPublisherProvider } from './relay/event-publisher.provider';

/**
 * Connector change events: the feed (`…/connector-events`), and the relay that numbers the outbox, publishes it
 * to NATS JetStream (NATS_URL) and purges it. The events themselves are appended beside each version
 * (ConnectorEventOutbox), in the write's transaction.
 */
@Module({
  imports: [DomainModule.with(ConnectorEventRepository, ParkedEventRepository)],
  controllers: [ConnectorEventFeedController],
  providers: [
    ConnectorEventFeedService,
    EventFeedWatcher,
    EventCursors,
    // Two budgets: pages the feed's callers do not read never hold the relay's publishing back.
    { provide: EventReads, useFactory: () => new EventReads() },
    { provide: RELAY_EVENT_READS, useFactory: () => new EventReads(RELAY_READS_IN_FLIGHT_BYTES) },
    ConnectorEventMetrics,
    ConnectorEventRelay,
    EventPublisherProvider,
  ],
})
export class ConnectorEventsModule {}

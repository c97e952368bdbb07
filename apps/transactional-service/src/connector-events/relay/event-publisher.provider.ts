import { APP_CONFIG, AppConfig, ReadinessDetails } from '@app/platform';
import { FactoryProvider } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { ConnectorEventPublisher } from '../jetstream/connector-event-publisher';
import { startJetStreamPublisher } from '../jetstream/jetstream-publisher';

/** The injection token of the publisher: null without NATS_URL. */
export const CONNECTOR_EVENT_PUBLISHER = Symbol('CONNECTOR_EVENT_PUBLISHER');

/** A publish JetStream has not acknowledged in this time fails; the relay retries it. */
const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * The JetStream publisher with NATS_URL, else none (the feed alone). It connects in the background: the app starts
 * and serves while NATS is down. `/health/ready` names it `nats`; the relay closes it at shutdown.
 */
export const EventPublisherProvider: FactoryProvider<ConnectorEventPublisher | null> = {
  provide: CONNECTOR_EVENT_PUBLISHER,
  inject: [APP_CONFIG, ReadinessDetails, PinoLogger],
  useFactory: (config: AppConfig, readiness: ReadinessDetails, logger: PinoLogger) => {
    const { natsUrl, stream, retentionDays, subjectPrefix } = config.changeEvents;
    if (!natsUrl) return null;
    logger.setContext('ConnectorEventPublisher');
    const publisher = startJetStreamPublisher({ url: natsUrl, stream, subjectPrefix, maxAgeDays: retentionDays, publishTimeoutMs: PUBLISH_TIMEOUT_MS }, logger);
    readiness.add('nats', () => publisher.status());
    return publisher;
  },
};

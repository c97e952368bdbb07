import { APP_CONFIG, AppConfig, ReadinessDetails } from '@app/platform';
import { FactoryProvider } from '@nestjs/common';
import { CONNECTOR_EVENT_PUBLISHER, ConnectorEventPublisher } from './event-publisher';

/** The JetStream publisher with NATS_URL (named `nats` in /health/ready), else none: the feed alone. */
export const EventPublisherProvider: FactoryProvider<ConnectorEventPublisher | null> = {
  provide: CONNECTOR_EVENT_PUBLISHER,
  inject: [APP_CONFIG, ReadinessDetails],
  useFactory: (config: AppConfig, readiness: ReadinessDetails) => {
    if (!config.changeEvents.natsUrl) return null;
    void readiness;
    throw new Error('NATS_URL: the JetStream publisher is not wired yet');
  },
};

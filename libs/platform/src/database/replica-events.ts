import { PrimaryFallback, ReplicaEvents, ReplicaState, ReplicaStatus } from '@app/domain';
import { Logger } from 'pino';
import { PlatformMetrics } from '../metrics/metrics';

/** The replicas' log lines (one per change of state, never one per request) and their fallback counter. */
export function replicaEvents(logger: Logger, metrics: PlatformMetrics): ReplicaEvents {
  const fallbacks = metrics.primaryFallbacks();
  return {
    stateChanged(status: ReplicaStatus, previous: ReplicaState, address: string, reason: string): void {
      const line = { replica: status.name, address, state: status.state, previous, lagMs: status.lagMs, reason };
      if (status.state === 'up') logger.info(line, `read replica ${status.name} serves reads`);
      else if (previous === 'starting' && status.state === 'lagging')
        logger.info(line, `read replica ${status.name} serves no reads until it is within the lag bound`);
      else logger.warn(line, `read replica ${status.name} is ${status.state}: its reads go to the other replicas or the primary`);
    },
    usability(reason: string | undefined): void {
      if (reason === undefined) logger.info('read replicas: the primary can be replicated from again; replicas serve reads');
      else logger.error({ reason }, `read replicas are not used: ${reason}; every read goes to the primary (DATABASE_READ_URLS)`);
    },
    fellBack(reason: PrimaryFallback): void {
      fallbacks.inc({ reason });
    },
  };
}

import type { NextFunction, Request, Response } from 'express';
import type { ReadReplicas } from '@app/domain';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { routeOf } from '../http/route-of';

/** mysql2's pool keeps these as (undocumented but stable) arrays; SQLite has no pool. */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/**
 * The Prometheus metrics of one app, in a registry of its own (several apps may share a process in
 * tests). Request durations are labelled by route template, never by the raw path.
 */
export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status_code'>;

  constructor(app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route template and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  /** Express middleware: times every request until its response is sent. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const stop = this.requestDuration.startTimer();
    res.on('finish', () => stop({ method: req.method, route: routeOf(req), status_code: res.statusCode }));
    next();
  };

  /** The requests this process is answering now (`inFlight`: ShutdownState's count, long polls included). */
  watchRequests(inFlight: () => number): void {
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests this process is answering now, long polls of the change feed included; during a drain, what holds the stop',
      registers: [this.registry],
      collect() {
        this.set(inFlight());
      },
    });
  }

  /** Reads of a replica's that the primary served, by reason (ReadReplicas). */
  primaryFallbacks(): Counter<'reason'> {
    return new Counter({
      name: 'db_replica_fallback_reads_total',
      help: "Plain reads served by the primary instead of a replica: no healthy replica, the caller's own write not yet on one (read_your_writes), a replica failing mid-read, or replicas unusable",
      labelNames: ['reason'],
      registers: [this.registry],
    });
  }

  /** Pool figures of the primary and the replicas, and each replica's state and lag. */
  watchDatabase(dataSource: DataSource, replicas: ReadReplicas | null): void {
    const driver = dataSource.driver as unknown as { pool?: Mysql2Pool };
    const pools = (): Array<[string, Mysql2Pool]> => [
      ...(driver.pool ? [['primary', driver.pool] as [string, Mysql2Pool]] : []),
      ...(replicas?.replicas ?? []).map((replica) => [replica.name, replica.pool.pool as unknown as Mysql2Pool] as [string, Mysql2Pool]),
    ];
    if (replicas) this.watchReplicas(replicas);
    const gauge = (name: string, help: string, read: (pool: Mysql2Pool) => number | undefined) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [pool, figures] of pools()) {
            const value = read(figures);
            if (value !== undefined) this.set({ pool }, value);
          }
        },
      });
    gauge('db_pool_connections', 'Open connections of the database pool', (pool) => pool._allConnections?.length);
    gauge('db_pool_idle_connections', 'Idle connections of the database pool', (pool) => pool._freeConnections?.length);
    gauge('db_pool_waiting_requests', 'Requests waiting for a database connection', (pool) => pool._connectionQueue?.length);
  }

  private watchReplicas(replicas: ReadReplicas): void {
    new Gauge({
      name: 'db_replica_up',
      help: 'Whether a read replica serves reads (1: answers and within DATABASE_REPLICA_MAX_LAG_MS) or not (0)',
      labelNames: ['replica', 'state'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { name, state } of replicas.statuses()) this.set({ replica: name, state }, state === 'up' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far a read replica was behind the primary at its last probe, measured by the platform',
      labelNames: ['replica'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { name, lagMs } of replicas.statuses()) if (lagMs !== null) this.set({ replica: name }, lagMs / 1000);
      },
    });
  }
}

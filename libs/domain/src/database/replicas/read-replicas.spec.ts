import { DatabaseDeadlineError, ServerPool } from '../server-pool';
import { GtidPosition } from './gtid-position';
import { PrimaryFallback, ReadReplicas, Replica, ReplicaEvents, ReplicaState, ReplicaStatus } from './read-replicas';

/** A server as the probes see it: the answer to each probe statement, or the error it fails with. Anything else is a bug. */
class FakeServer {
  position = '0-1-1';
  logBin = 1;
  failure: unknown;
  /** While set, every statement waits for it (a server that accepts the statement and does not answer yet). */
  hold: Promise<void> | undefined;
  queries = 0;

  pool(): ServerPool {
    return {
      query: async (sql: string) => {
        this.queries++;
        await this.hold;
        if (this.failure) throw this.failure;
        if (sql === 'SELECT @@log_bin AS logBin, @@gtid_binlog_pos AS position') return [{ logBin: this.logBin, position: this.position }];
        if (sql === 'SELECT @@gtid_current_pos AS position') return [{ position: this.position }];
        throw new Error(`unexpected statement: ${sql}`);
      },
      end: async () => undefined,
    } as unknown as ServerPool;
  }
}

class RecordedEvents implements ReplicaEvents {
  readonly changes: Array<{ name: string; from: ReplicaState; to: ReplicaState }> = [];
  readonly usabilities: Array<string | undefined> = [];
  readonly fallbacks: PrimaryFallback[] = [];
  readonly reasons: string[] = [];
  stateChanged(status: ReplicaStatus, previous: ReplicaState, _address: string, reason: string): void {
    this.changes.push({ name: status.name, from: previous, to: status.state });
    this.reasons.push(reason);
  }
  usability(reason: string | undefined): void {
    this.usabilities.push(reason);
  }
  fellBack(reason: PrimaryFallback): void {
    this.fallbacks.push(reason);
  }
}

const position = (text: string) => GtidPosition.parse(text)!;
const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

describe(ReadReplicas.name, () => {
  let now: number;
  let primary: FakeServer;
  let servers: FakeServer[];
  let events: RecordedEvents;
  let sut: ReadReplicas;

  beforeEach(() => {
    now = 0;
    primary = new FakeServer();
    servers = [new FakeServer(), new FakeServer()];
    events = new RecordedEvents();
    const replicas = servers.map((server, i) => new Replica(`replica-${i + 1}`, `10.0.0.${i + 1}:3306`, server.pool()));
    sut = new ReadReplicas(replicas, primary.pool(), events, { maxLagMs: 1_000, now: () => now });
  });
  afterEach(() => sut.stop());

  const names = (required = GtidPosition.EMPTY) => sut.candidates(required).replicas.map((replica) => replica.name);

  it('sends no read to a replica before it was probed, then takes turns among the serving ones', async () => {
    expect(sut.candidates(GtidPosition.EMPTY)).toEqual({ replicas: [], fallback: 'no_healthy_replica' });

    await sut.probe();

    expect(names()).toEqual(['replica-1', 'replica-2']);
    expect(names()).toEqual(['replica-2', 'replica-1']);
    expect(events.changes).toEqual([
      { name: 'replica-1', from: 'starting', to: 'up' },
      { name: 'replica-2', from: 'starting', to: 'up' },
    ]);
  });

  it('sends a read that must see a position only to replicas that had applied it, else to the primary', async () => {
    primary.position = '0-1-5';
    servers[0].position = '0-1-5';
    servers[1].position = '0-1-4';
    await sut.probe();

    expect(names(position('0-1-5'))).toEqual(['replica-1']);
    expect(sut.candidates(position('0-1-6'))).toEqual({ replicas: [], fallback: 'read_your_writes' });
  });

  it('takes a replica further behind than the bound out of service, tells each change once, and back once it caught up', async () => {
    await sut.probe();
    primary.position = '0-1-2';
    now = 100;
    await sut.probe();
    now = 1_200;
    await sut.probe();
    now = 1_300;
    await sut.probe();

    // 0-1-2 committed after 0, when the primary was last seen at 0-1-1.
    expect(sut.statuses()).toEqual([
      { name: 'replica-1', state: 'lagging', lagMs: 1_300 },
      { name: 'replica-2', state: 'lagging', lagMs: 1_300 },
    ]);
    expect(sut.candidates(GtidPosition.EMPTY).fallback).toBe('no_healthy_replica');

    servers[1].position = '0-1-2';
    await sut.probe();

    expect(names()).toEqual(['replica-2']);
    expect(events.changes.filter((change) => change.name === 'replica-2')).toEqual([
      { name: 'replica-2', from: 'starting', to: 'up' },
      { name: 'replica-2', from: 'up', to: 'lagging' },
      { name: 'replica-2', from: 'lagging', to: 'up' },
    ]);
  });

  it('serves nothing from a replica that lacks part of what the primary held at the first probe until it has it, however long this process has run', async () => {
    primary.position = '0-1-9';
    servers[1].position = '0-1-2';
    servers[0].position = '0-1-9';
    await sut.probe();
    now = 500;
    await sut.probe();

    expect(sut.statuses()).toEqual([
      { name: 'replica-1', state: 'up', lagMs: 0 },
      { name: 'replica-2', state: 'lagging', lagMs: null },
    ]);
    expect(events.reasons.at(-1)).toMatch(/lacks part of what the primary held when this process first reached it/);

    servers[1].position = '0-1-9';
    await sut.probe();

    expect(names()).toHaveLength(2);
  });

  it('waits until every replica has applied a position, probing them', async () => {
    await sut.probe();
    primary.position = '0-1-4';
    servers.forEach((server) => (server.position = '0-1-4'));

    await sut.applied(position('0-1-4'), now);

    expect(sut.candidates(position('0-1-4')).replicas).toHaveLength(2);
  });

  it('stops waiting for a replica without the position once no process serves reads from it any more', async () => {
    await sut.probe();
    primary.position = '0-1-4';
    servers[0].position = '0-1-4';
    const probed = servers[1].queries;
    const applied = sut.applied(position('0-1-4'), 0);
    let settled = false;
    void applied.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(settled).toBe(false);
    expect(servers[1].queries - probed).toBeGreaterThanOrEqual(3);

    now = sut.settleMs;
    await applied;

    // The lag bound (1 s here), plus a probe interval and two deadlines, plus a second.
    expect(sut.settleMs).toBe(4_500);
  });

  it('answers at its deadline even while a probe of a replica without the position has not answered', async () => {
    await sut.probe();
    primary.position = '0-1-4';
    servers.forEach((server) => (server.position = '0-1-4'));
    let release!: () => void;
    servers[1].hold = new Promise((resolve) => (release = resolve));
    try {
      // Committed settleMs - 100 ms ago: 100 ms left.
      const applied = sut.applied(position('0-1-4'), 100 - sut.settleMs);
      now = 100;

      const outcome = await Promise.race([applied.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000))]);

      expect(outcome).toBe('answered');
    } finally {
      release();
    }
  });

  it('decides the lag bound when a read comes, not at the last probe: a replica past the bound since serves nothing', async () => {
    await sut.probe();
    primary.position = '0-1-2';
    now = 100;
    await sut.probe();

    expect(names()).toHaveLength(2);
    now = 1_001;
    expect(sut.candidates(GtidPosition.EMPTY)).toEqual({ replicas: [], fallback: 'no_healthy_replica' });
  });

  it('serves nothing from a server that holds transactions the primary does not: another database, or one written to directly', async () => {
    primary.position = '0-1-25';
    servers[0].position = '0-1-326';
    servers[1].position = '0-2-25';
    await sut.probe();

    expect(sut.statuses().map((status) => status.state)).toEqual(['down', 'down']);
    expect(sut.candidates(GtidPosition.EMPTY).fallback).toBe('no_healthy_replica');
    expect(events.reasons.at(-1)).toMatch(/holds transactions the primary does not \(0-2-25 against 0-1-25\): it is not a replica of DATABASE_URL/);
  });

  it('marks a replica down or stalled when its probe fails or times out, and up again when it answers', async () => {
    await sut.probe();
    servers[0].failure = unreachable;
    servers[1].failure = new DatabaseDeadlineError('a statement', 1_000);
    await sut.probe();

    expect(sut.statuses().map((status) => status.state)).toEqual(['down', 'stalled']);

    servers[0].failure = undefined;
    await sut.probe();

    expect(sut.statuses().map((status) => status.state)).toEqual(['up', 'stalled']);
  });

  it('takes a replica out at once when a read on it fails for its connection', async () => {
    await sut.probe();
    const [first] = sut.candidates(GtidPosition.EMPTY).replicas;

    sut.failed(first, unreachable);

    expect(names()).toEqual(['replica-2']);
  });

  it('goes on serving from the replicas while the primary is unreachable, measuring their lag against what it last saw', async () => {
    primary.position = '0-1-3';
    servers[0].position = '0-1-3';
    servers[1].position = '0-1-2';
    await sut.probe();
    primary.failure = unreachable;
    now = 60_000;
    await sut.probe();

    expect(sut.statuses().map((status) => status.state)).toEqual(['up', 'lagging']);
    expect(events.usabilities).toEqual([]);
  });

  it('uses no replica when the primary writes no binary log or is not MariaDB, and says so once', async () => {
    primary.logBin = 0;
    await sut.probe();
    await sut.probe();

    expect(sut.candidates(GtidPosition.EMPTY)).toEqual({ replicas: [], fallback: 'replicas_unusable' });
    expect(events.usabilities).toEqual(['the primary writes no binary log, so no replica can follow it']);

    primary.logBin = 1;
    await sut.probe();

    expect(events.usabilities).toEqual(['the primary writes no binary log, so no replica can follow it', undefined]);
    expect(names()).toHaveLength(2);
  });
});

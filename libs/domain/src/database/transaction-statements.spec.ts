import { ORGANIZATION_ROWS } from '../organizations/organization.entity';
import { Database } from './database';
import { statement } from './statement';
import { ERRORS_LATER, Transaction } from './statements';
import { transactionOn, TransactionSession } from './transaction-statements';

const A = '0199bbbb-0000-7000-8000-00000000000a';
const RENAME = statement('UPDATE organizations SET name = :name WHERE uuid = :uuid');

/** A session that keeps what it is handed: deferred writes queued, immediate statements answered. */
function recordingSession() {
  const deferred: Array<{ sql: string; params: readonly unknown[] }> = [];
  const session: TransactionSession = {
    rows: jest.fn(async () => []),
    affected: jest.fn(async () => 1),
    defer: (sql, params) => void deferred.push({ sql, params }),
  };
  return { session, deferred };
}

describe(transactionOn.name, () => {
  it('queues a deferred insert on the session, bound as the engine stores it, and answers at once', () => {
    const { session, deferred } = recordingSession();
    const sut = transactionOn(session, false);

    const answer = sut.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);

    expect(answer).toBe(ERRORS_LATER);
    expect(deferred).toEqual([{ sql: 'INSERT INTO organizations (uuid, name) VALUES (?, ?)', params: [A, 'Acme'] }]);
  });

  it('queues nothing for no rows', () => {
    const { session, deferred } = recordingSession();

    transactionOn(session, true).defer.upsert(ORGANIZATION_ROWS, [], ['uuid']);

    expect(deferred).toEqual([]);
  });

  it("queues a Statement's write with its parameters in the order of its placeholders", () => {
    const { session, deferred } = recordingSession();

    transactionOn(session, false).defer.write(RENAME, { uuid: A, name: 'Acme renamed' });

    expect(deferred).toEqual([{ sql: 'UPDATE organizations SET name = ? WHERE uuid = ?', params: ['Acme renamed', A] }]);
  });

  it('throws a parameter the call does not give at the call: a bug, not an error of the database', () => {
    const { session, deferred } = recordingSession();

    expect(() => transactionOn(session, false).defer.write(RENAME, { uuid: A } as never)).toThrow('No value for :name');
    expect(deferred).toEqual([]);
  });

  it('sends immediate statements through the session, which answers them', async () => {
    const { session } = recordingSession();
    const sut = transactionOn(session, false);

    await expect(sut.run(RENAME, { uuid: A, name: 'Acme' })).resolves.toBe(1);
    expect(session.affected).toHaveBeenCalledWith('UPDATE organizations SET name = ? WHERE uuid = ?', ['Acme', A]);
  });

  it('has nothing to wait for in a deferred write: awaited anyway (the compiler refuses it), it settles at once, the write still queued', async () => {
    const { session, deferred } = recordingSession();
    const sut = transactionOn(session, false);

    const settled = await misuse(sut);

    expect(settled).toBe(ERRORS_LATER);
    expect(deferred).toHaveLength(1);
    expect(session.rows).not.toHaveBeenCalled();
  });
});

/**
 * The protocol in the types, checked by `npm run typecheck`: each `@ts-expect-error` fails the check when its line
 * compiles, so a deferred write that could be awaited, caught or handed on as a promise would fail it.
 */
async function misuse(tx: Transaction): Promise<unknown> {
  // @ts-expect-error TS1320: a deferred write answers nothing to await; its error comes at the next immediate statement or the commit.
  const settled: unknown = await tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
  const catchIt = () =>
    // @ts-expect-error No `catch` to attach: the error is not this call's.
    tx.defer.write(RENAME, { uuid: A, name: 'Acme' }).catch(() => undefined);
  // @ts-expect-error Not a promise: it cannot stand for one.
  const asPromise: Promise<void> = tx.defer.upsert(ORGANIZATION_ROWS, [], ['uuid']);
  // @ts-expect-error TS1058: an async function cannot answer it, which would look like the error travels with its promise.
  const handOn = async () => tx.defer.insert(ORGANIZATION_ROWS, []);
  // Immediate statements answer promises, and throw their own errors (and those of the writes deferred before them).
  const immediate: Promise<number> = tx.run(RENAME, { uuid: A, name: 'Acme' });
  // Outside a transaction, Database's writes are immediate.
  const outside = (db: Database): Promise<void> => db.insert(ORGANIZATION_ROWS, []);
  void [catchIt, asPromise, handOn, immediate, outside];
  return settled;
}

import {
  ConnectorTestRun,
  ConnectorTestRunRepository,
  Database,
  ERRORS_LATER,
  DESTINATION_HOST_LENGTH,
  RecordedTestRunOutcome,
  ScopeService,
  Transaction,
} from '@app/domain';
import { PinoLogger } from 'nestjs-pino';
import { strictFake } from '../../../../../test/support/strict-fake';
import { TEST_RUNS_KEPT, TestRunRecordsService } from './test-run-records.service';

const TX = {} as Transaction;
const A_RUN: ConnectorTestRun = {
  uuid: '0199aaaa-0000-7000-8000-000000000001',
  organizationUuid: '0199aaaa-0000-7000-8000-000000000002',
  environmentUuid: '0199aaaa-0000-7000-8000-000000000003',
  botUuid: '0199aaaa-0000-7000-8000-000000000004',
  connectorUuid: null,
  callerSub: 'auth0|ada',
  callerUsername: 'ada',
  requestId: 'request-1',
  destinationHost: 'api.example.com',
  outcome: RecordedTestRunOutcome.SUCCESS,
  httpStatus: 200,
  durationMs: 12,
  startedAt: new Date('2026-01-01T00:00:00.000Z'),
};
const A_MARK = { startedAt: new Date('2025-12-31T00:00:00.000Z'), uuid: '0199aaaa-0000-7000-8000-000000000009' };

/** The service on strict fakes: the database hands its transaction to the work, the repository answers what a test says. */
function newTestService() {
  const db = strictFake(Database);
  db.transaction.mockImplementation((work) => work(TX));
  const runs = strictFake(ConnectorTestRunRepository);
  runs.record.mockReturnValue(ERRORS_LATER);
  const logger = { warn: jest.fn() } as unknown as jest.Mocked<PinoLogger>;
  return { sut: new TestRunRecordsService(db, strictFake(ScopeService), runs, logger), db, runs, logger };
}

describe(TestRunRecordsService.name, () => {
  describe('record', () => {
    it(`writes the run, then deletes its group's runs from the first past the newest ${TEST_RUNS_KEPT}, in one transaction`, async () => {
      const { sut, runs } = newTestService();
      runs.firstPast.mockResolvedValue(A_MARK);
      runs.deleteFrom.mockResolvedValue(1);

      await sut.record(A_RUN);

      expect(runs.record).toHaveBeenCalledWith(TX, A_RUN);
      expect(runs.firstPast).toHaveBeenCalledWith(TX, A_RUN, TEST_RUNS_KEPT);
      expect(runs.deleteFrom).toHaveBeenCalledWith(TX, A_RUN, A_MARK);
    });

    it(`deletes nothing while the group holds no more than ${TEST_RUNS_KEPT}`, async () => {
      const { sut, runs } = newTestService();
      runs.firstPast.mockResolvedValue(null);

      await sut.record(A_RUN);

      expect(runs.record).toHaveBeenCalledWith(TX, A_RUN);
      expect(runs.deleteFrom).not.toHaveBeenCalled();
    });

    it('keeps a host longer than the column cut and marked, with its port: a cut through the port would name another', async () => {
      const { sut, runs } = newTestService();
      runs.firstPast.mockResolvedValue(null);
      // Longer than any DNS name: a URL may hold one, the run found no address for it, and its record says so.
      const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;

      await sut.record({ ...A_RUN, destinationHost: `${name}:8080` });
      await sut.record({ ...A_RUN, destinationHost: `${name}xyz` });
      await sut.record({ ...A_RUN, destinationHost: `${'e'.repeat(250)}:8080` });

      const kept = runs.record.mock.calls.map(([, run]) => run.destinationHost);
      expect(kept).toEqual([`${name.slice(0, 249)}…:8080`, `${name}x…`, `${'e'.repeat(250)}:8080`]);
      expect(kept.map((host) => host.length)).toEqual([DESTINATION_HOST_LENGTH, DESTINATION_HOST_LENGTH, DESTINATION_HOST_LENGTH]);
    });

    it("never fails for the database: a write that fails is a warning with the run's request id", async () => {
      const { sut, db, logger } = newTestService();
      db.transaction.mockRejectedValue(Object.assign(new Error("Table 'connector_test_runs' doesn't exist"), { code: 'ER_NO_SUCH_TABLE' }));

      await expect(sut.record(A_RUN)).resolves.toBeUndefined();

      expect(logger.warn).toHaveBeenCalledWith(
        {
          requestId: 'request-1',
          connectorUuid: null,
          error: { type: 'Error', code: 'ER_NO_SUCH_TABLE', message: "Table 'connector_test_runs' doesn't exist" },
        },
        'connector test run not recorded: its answer was sent anyway',
      );
    });
  });
});

import { AuthType, BotNotFoundException, EnvironmentNotFoundException, ERRORS_LATER, fingerprintOf, IdempotencyKey, InvalidInputError } from '@app/domain';
import { ConnectorNameConflictException } from '../rest-connector.exceptions';
import { A_CONNECTOR_PATH, aWriteDto } from '../testing/connector-factories';
import { NO_ENVIRONMENT } from '../env-destinations';
import { AUTHOR, CALLER, duplicateKey, newTestService, refusedAtCommit, TX } from '../../../../../test/support/connector-test-service';
import { CreateConnectors } from './create-connectors.use-case';

const { serviceUUID: _, ...PATH } = A_CONNECTOR_PATH;
const BOT_TARGET = `${PATH.orgUUID}/${PATH.envUUID}/${PATH.botUUID}`;
/** What the INSERT of a connector whose bot is not at the path fails with (its bot's uuid read as NULL). */
const nullRefused = () => Object.assign(new Error("Column 'bot_uuid' cannot be null"), { code: 'ER_BAD_NULL_ERROR' });
const NO_BOT = { organization: true, environment: true, bot: false };
const KEY = { callerSub: 'alice', idempotencyKey: 'k1' };
/** The stored key of a request that completed with `body`, under the fingerprint of `target` and the sent body `{}`. */
const completedKey = (target: string, body: IdempotencyKey['responseBody']): IdempotencyKey => ({
  ...KEY,
  fingerprint: fingerprintOf('POST', target, {}),
  state: 'completed',
  responseStatus: 201,
  responseBody: body,
  lockedAt: new Date(),
  expiresAt: new Date(Date.now() + 60_000),
});

async function newCreate() {
  const fakes = await newTestService(CreateConnectors);
  fakes.connectors.insert.mockReturnValue(ERRORS_LATER);
  fakes.keys.insert.mockResolvedValue();
  return fakes;
}

describe(CreateConnectors.name, () => {
  describe('one', () => {
    it('inserts version 1 with a new id, sealing its secrets, and answers the id', async () => {
      const { sut, connectors } = await newCreate();

      const created = await sut.one({ path: PATH, dto: aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 's3cr3t' }), author: AUTHOR });

      const [tx, , row, tags] = connectors.insert.mock.calls[0];
      expect(tx).toBe(TX);
      expect(row).toMatchObject({ uuid: created.uuid, botUuid: PATH.botUUID, version: 1, bearerToken: 'sealed:s3cr3t', createdBy: 'alice' });
      expect(tags).toEqual([{ name: 'weather', nameKey: 'weather', position: 0 }]);
    });

    it('records version 1, CREATED, and appends its change event after it, in the unit of work of the insert', async () => {
      const { sut, history, outbox } = await newCreate();
      const author = { ...AUTHOR, caller: { ...CALLER, picture: 'https://img/a.png' }, reason: 'Weather for the FAQ bot' };

      const created = await sut.one({ path: PATH, dto: aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 's3cr3t' }), author });

      const version = {
        connectorUuid: created.uuid,
        version: 1,
        operation: 'CREATED',
        updatedAt: expect.any(Date),
        updatedBy: 'alice',
        updatedByImage: 'https://img/a.png',
        updatedBySub: 'alice',
        requestId: 'request-1',
        reason: 'Weather for the FAQ bot',
        revertedTo: null,
        promotionId: null,
        changedFields: ['name', 'requestType', 'url', 'headers', 'contentType', 'authType', 'bearerToken', 'output', 'tags'],
        snapshot: expect.objectContaining({ uuid: created.uuid, bearerToken: '<BEARER_TOKEN>', tags: [{ name: 'weather' }] }),
      };
      expect(history.record).toHaveBeenCalledWith(TX, version);
      expect(outbox.append).toHaveBeenCalledWith(TX, PATH, history.record.mock.calls[0][1]);
      expect(outbox.append.mock.invocationCallOrder[0]).toBeGreaterThan(history.record.mock.invocationCallOrder[0]);
      expect(JSON.stringify(history.record.mock.calls)).not.toContain('s3cr3t');
    });

    it('is a 404 naming the missing link, read on the primary, when the insert read no bot at the path', async () => {
      const { sut, scopes, db } = await newCreate();
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue(NO_BOT);

      await expect(sut.one({ path: PATH, dto: aWriteDto(), author: AUTHOR })).rejects.toBeInstanceOf(BotNotFoundException);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'primary');
    });

    it('records the version and appends the event in the unit of work whose insert is refused, so neither is kept', async () => {
      const { sut, history, outbox, scopes, db } = await newCreate();
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue(NO_BOT);

      await expect(sut.one({ path: PATH, dto: aWriteDto(), author: AUTHOR })).rejects.toBeInstanceOf(BotNotFoundException);
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(history.record).toHaveBeenCalledWith(TX, expect.objectContaining({ version: 1 }));
      expect(outbox.append).toHaveBeenCalledWith(TX, PATH, expect.objectContaining({ version: 1 }));
    });

    it("names the path's first missing link when the bot's environment is the one gone", async () => {
      const { sut, scopes, db } = await newCreate();
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue({ organization: true, environment: false, bot: false });

      await expect(sut.one({ path: PATH, dto: aWriteDto(), author: AUTHOR })).rejects.toBeInstanceOf(EnvironmentNotFoundException);
    });

    it("keeps the database's error when a NULL was refused while every link of the path is there", async () => {
      const { sut, db } = await newCreate();
      const refused = nullRefused();
      refusedAtCommit(db, refused);

      await expect(sut.one({ path: PATH, dto: aWriteDto(), author: AUTHOR })).rejects.toBe(refused);
    });

    it('is a 409 naming the name when the database reports a duplicate key, and frees the Idempotency-Key', async () => {
      const { sut, db, keys } = await newCreate();
      refusedAtCommit(db, duplicateKey());

      await expect(sut.one({ path: PATH, dto: aWriteDto({ name: 'Taken' }), author: AUTHOR, retry: { key: 'k1', sentBody: {} } })).rejects.toThrow(
        new ConnectorNameConflictException('Taken'),
      );
      // The answer was stored in the unit of work the refusal rolled back; the key is free for a retry.
      expect(keys.complete).toHaveBeenCalledWith(TX, KEY, 201, expect.anything());
      expect(keys.release).toHaveBeenCalledWith(KEY);
    });

    it("stores an Idempotency-Key's answer in the unit of work that inserts the connector", async () => {
      const { sut, db, keys } = await newCreate();

      const created = await sut.one({ path: PATH, dto: aWriteDto(), author: AUTHOR, retry: { key: 'k1', sentBody: {} } });

      expect(keys.insert).toHaveBeenCalledWith(expect.objectContaining({ ...KEY, fingerprint: fingerprintOf('POST', BOT_TARGET, {}) }));
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(keys.complete).toHaveBeenCalledWith(TX, KEY, 201, created);
    });

    it('replays the first answer of an Idempotency-Key and inserts nothing', async () => {
      const { sut, connectors, keys } = await newCreate();
      keys.insert.mockRejectedValue(duplicateKey());
      keys.find.mockResolvedValue(completedKey(BOT_TARGET, { uuid: 'first-uuid' }));

      await expect(sut.one({ path: PATH, dto: aWriteDto(), author: AUTHOR, retry: { key: 'k1', sentBody: {} } })).resolves.toEqual({ uuid: 'first-uuid' });
      expect(connectors.insert).not.toHaveBeenCalled();
    });

    it('refuses a body the write rules refuse, inserting nothing, and frees the key for the corrected retry', async () => {
      const { sut, connectors, keys } = await newCreate();
      const placeholder = aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>' });

      await expect(sut.one({ path: PATH, dto: placeholder, author: AUTHOR, retry: { key: 'k1', sentBody: {} } })).rejects.toBeInstanceOf(InvalidInputError);
      expect(connectors.insert).not.toHaveBeenCalled();
      expect(keys.release).toHaveBeenCalledWith(KEY);
    });
  });

  describe('many', () => {
    const bearer = (name: string) => aWriteDto({ name, authType: AuthType.AUTH_BEARER, bearerToken: `token of ${name}` });

    it('creates every prepared connector in one unit of work, each with its version and event, sealing each secret once', async () => {
      const { sut, connectors, history, outbox, cipher, db } = await newCreate();
      const prepared = [sut.prepare(PATH, bearer('One'), AUTHOR, NO_ENVIRONMENT), sut.prepare(PATH, bearer('Two'), AUTHOR, NO_ENVIRONMENT)];

      const uuids = await sut.many({ path: PATH, connectors: prepared, author: AUTHOR });

      expect(uuids).toEqual(prepared.map(({ connector }) => connector.uuid));
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(connectors.insert.mock.calls.map(([, , row]) => [row.name, row.bearerToken])).toEqual([
        ['One', 'sealed:token of One'],
        ['Two', 'sealed:token of Two'],
      ]);
      expect(history.record.mock.calls.map(([, version]) => version.connectorUuid)).toEqual(uuids);
      expect(outbox.append.mock.calls.map(([tx, path, version]) => [tx, path, version.connectorUuid, version.version])).toEqual(
        uuids.map((uuid) => [TX, PATH, uuid, 1]),
      );
      // The write rules and the sealing ran in prepare only: the create runs neither again.
      expect(cipher.encrypt).toHaveBeenCalledTimes(2);
    });

    it("stores the uuids under the route's fingerprint, and replays them to a retry without inserting", async () => {
      const { sut, connectors, keys } = await newCreate();
      const retry = { key: 'k1', sentBody: {}, route: 'rest-connectors/import' };
      const prepared = [
        sut.prepare(PATH, aWriteDto({ name: 'One' }), AUTHOR, NO_ENVIRONMENT),
        sut.prepare(PATH, aWriteDto({ name: 'Two' }), AUTHOR, NO_ENVIRONMENT),
      ];

      const uuids = await sut.many({ path: PATH, connectors: prepared, author: AUTHOR, retry });
      expect(keys.insert).toHaveBeenCalledWith(expect.objectContaining({ fingerprint: fingerprintOf('POST', `${BOT_TARGET}/rest-connectors/import`, {}) }));
      expect(keys.complete).toHaveBeenCalledWith(TX, KEY, 201, { uuids: uuids.join(',') });

      keys.insert.mockRejectedValue(duplicateKey());
      keys.find.mockResolvedValue(completedKey(`${BOT_TARGET}/rest-connectors/import`, { uuids: 'first-1,first-2' }));
      connectors.insert.mockClear();
      await expect(sut.many({ path: PATH, connectors: prepared, author: AUTHOR, retry })).resolves.toEqual(['first-1', 'first-2']);
      expect(connectors.insert).not.toHaveBeenCalled();
    });

    it('is a 409 without a name when one of several names is taken', async () => {
      const { sut, db } = await newCreate();
      refusedAtCommit(db, duplicateKey());
      const prepared = [
        sut.prepare(PATH, aWriteDto({ name: 'One' }), AUTHOR, NO_ENVIRONMENT),
        sut.prepare(PATH, aWriteDto({ name: 'Two' }), AUTHOR, NO_ENVIRONMENT),
      ];

      await expect(sut.many({ path: PATH, connectors: prepared, author: AUTHOR })).rejects.toThrow(new ConnectorNameConflictException());
    });
  });

  describe('batch', () => {
    it('decides the batch once the key is taken, runs its further writes in the unit of work of the inserts, and stores its answer', async () => {
      const { sut, connectors, keys, db } = await newCreate();
      const retry = { key: 'k1', sentBody: {}, route: 'rest-connectors/import' };
      const prepared = [sut.prepare(PATH, aWriteDto({ name: 'One' }), AUTHOR, NO_ENVIRONMENT)];
      const within = jest.fn().mockResolvedValue(undefined);
      const batch = jest.fn().mockResolvedValue({ connectors: prepared, within, answer: { outcomes: '[1]' } });

      await expect(sut.batch({ path: PATH, author: AUTHOR, retry, batch })).resolves.toEqual({ outcomes: '[1]' });

      expect(keys.insert.mock.invocationCallOrder[0]).toBeLessThan(batch.mock.invocationCallOrder[0]);
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(within).toHaveBeenCalledWith(TX);
      expect(within.mock.invocationCallOrder[0]).toBeGreaterThan(connectors.insert.mock.invocationCallOrder[0]);
      expect(keys.complete).toHaveBeenCalledWith(TX, KEY, 201, { outcomes: '[1]' });
    });

    it('answers a retry of a completed request with its stored answer, deciding nothing again', async () => {
      const { sut, keys } = await newCreate();
      keys.insert.mockRejectedValue(duplicateKey());
      keys.find.mockResolvedValue(completedKey(`${BOT_TARGET}/rest-connectors/import`, { outcomes: '[first]' }));
      const batch = jest.fn();

      await expect(sut.batch({ path: PATH, author: AUTHOR, retry: { key: 'k1', sentBody: {}, route: 'rest-connectors/import' }, batch })).resolves.toEqual({
        outcomes: '[first]',
      });
      expect(batch).not.toHaveBeenCalled();
    });
  });
});

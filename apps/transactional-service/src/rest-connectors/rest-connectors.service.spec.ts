import { AuthType, BotNotFoundException, ConnectorRelationsRepository, Database, IdempotencyService, NOT_IN_SCOPE, RestConnectorRepository, ScopeRepository, ScopeService, SecretCipher, Transaction } from '@app/domain';
import { Caller } from '@app/platform';
import { ConflictException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { RestConnectorsService } from './rest-connectors.service';
import { A_CONNECTOR_PATH, aStoredConnector, aWriteDto } from './testing/connector-factories';
import { ConnectorChangedException, ConnectorNameConflictException, ConnectorNotFoundException } from './rest-connector.exceptions';

const PATH = A_CONNECTOR_PATH;
const CALLER: Caller = { sub: 'alice', username: 'alice', picture: null, orgs: ['*'], scopes: ['connectors:write'] };
const duplicateKey = () => Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });

/** The unit of work's transaction the fake database hands to the work. */
const TX: Transaction = { rows: jest.fn(), run: jest.fn(), insert: jest.fn(), upsert: jest.fn() };
const EVERY_LINK = { organization: true, environment: true, bot: true };

/** The service on fake repositories (the real ScopeService over a fake lookup): every rule of a connector write, checked without a database. */
async function newTestService() {
  const connectors = { findActive: jest.fn(), insert: jest.fn(), update: jest.fn(), softDelete: jest.fn() };
  const relations = { of: jest.fn().mockResolvedValue({ tags: new Map(), flows: new Map() }) };
  const scopes = { lookup: jest.fn().mockResolvedValue(EVERY_LINK) };
  const db = { transaction: jest.fn((work: (tx: Transaction) => Promise<unknown>) => work(TX)) };
  const cipher = { encrypt: jest.fn((plaintext: string) => `sealed:${plaintext}`) };
  const idempotency = { begin: jest.fn(), complete: jest.fn(), release: jest.fn() };
  const module = await Test.createTestingModule({
    providers: [
      RestConnectorsService,
      ScopeService,
      { provide: Database, useValue: db },
      { provide: RestConnectorRepository, useValue: connectors },
      { provide: ConnectorRelationsRepository, useValue: relations },
      { provide: ScopeRepository, useValue: scopes },
      { provide: SecretCipher, useValue: cipher },
      { provide: IdempotencyService, useValue: idempotency },
    ],
  }).compile();
  return { sut: module.get(RestConnectorsService), connectors, scopes, db, cipher, idempotency };
}

describe(RestConnectorsService.name, () => {
  describe('get', () => {
    it('answers the record with its ETag', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(aStoredConnector({ version: 4 }));

      const { body, etag } = await sut.get(PATH);

      expect(etag).toBe('"v4"');
      expect(body).toMatchObject({ uuid: PATH.serviceUUID, name: 'Weather forecast', tags: [], flows: [] });
    });

    it('is a connector 404 when the path holds but the connector does not', async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.findActive.mockResolvedValue(NOT_IN_SCOPE);

      await expect(sut.get(PATH)).rejects.toBeInstanceOf(ConnectorNotFoundException);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'replica');
    });

    it("is the scope's 404 when a link of the path is missing", async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.findActive.mockResolvedValue(NOT_IN_SCOPE);
      scopes.lookup.mockResolvedValue({ ...EVERY_LINK, bot: false });

      await expect(sut.get(PATH)).rejects.toBeInstanceOf(BotNotFoundException);
    });
  });

  describe('create', () => {
    it('inserts version 1 with a new id, sealing its secrets, and answers the id', async () => {
      const { sut, connectors } = await newTestService();
      connectors.insert.mockImplementation(async (_tx, _path, row) => row.uuid);

      const created = await sut.create(PATH, aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 's3cr3t' }), CALLER);

      const [tx, , row, tags] = connectors.insert.mock.calls[0];
      expect(tx).toBe(TX);
      expect(row).toMatchObject({ uuid: created.uuid, botUuid: PATH.botUUID, version: 1, bearerToken: 'sealed:s3cr3t', createdBy: 'alice' });
      expect(tags).toEqual([{ name: 'weather', nameKey: 'weather', position: 0 }]);
    });

    it('is a 409 naming the name when the database reports a duplicate key', async () => {
      const { sut, connectors } = await newTestService();
      connectors.insert.mockRejectedValue(duplicateKey());

      await expect(sut.create(PATH, aWriteDto({ name: 'Taken' }), CALLER)).rejects.toBeInstanceOf(ConnectorNameConflictException);
    });

    it('is a 404 when nothing was inserted because the bot is not in the path', async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.insert.mockResolvedValue(NOT_IN_SCOPE);

      await expect(sut.create(PATH, aWriteDto(), CALLER)).rejects.toBeInstanceOf(BotNotFoundException);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'primary');
    });

    it("stores an Idempotency-Key's answer in the unit of work that inserts the connector", async () => {
      const { sut, connectors, idempotency, db } = await newTestService();
      idempotency.begin.mockResolvedValue(undefined);
      connectors.insert.mockImplementation(async (_tx, _path, row) => row.uuid);

      const created = await sut.create(PATH, aWriteDto(), CALLER, { key: 'k1', sentBody: {} });

      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(idempotency.complete).toHaveBeenCalledWith(TX, expect.objectContaining({ key: 'k1' }), { status: 201, body: created });
    });

    it('stores no answer for an Idempotency-Key when nothing was inserted', async () => {
      const { sut, connectors, idempotency } = await newTestService();
      idempotency.begin.mockResolvedValue(undefined);
      connectors.insert.mockResolvedValue(NOT_IN_SCOPE);

      await expect(sut.create(PATH, aWriteDto(), CALLER, { key: 'k1', sentBody: {} })).rejects.toBeInstanceOf(BotNotFoundException);
      expect(idempotency.complete).not.toHaveBeenCalled();
      expect(idempotency.release).toHaveBeenCalled();
    });

    it('replays the first answer of an Idempotency-Key and inserts nothing', async () => {
      const { sut, connectors, idempotency } = await newTestService();
      idempotency.begin.mockResolvedValue({ status: 201, body: { uuid: 'first-uuid' } });

      await expect(sut.create(PATH, aWriteDto(), CALLER, { key: 'k1', sentBody: {} })).resolves.toEqual({ uuid: 'first-uuid' });
      expect(connectors.insert).not.toHaveBeenCalled();
    });

    it('releases the Idempotency-Key when the create fails', async () => {
      const { sut, connectors, idempotency } = await newTestService();
      idempotency.begin.mockResolvedValue(undefined);
      connectors.insert.mockRejectedValue(duplicateKey());

      await expect(sut.create(PATH, aWriteDto(), CALLER, { key: 'k1', sentBody: {} })).rejects.toBeInstanceOf(ConnectorNameConflictException);
      expect(idempotency.release).toHaveBeenCalledWith(expect.objectContaining({ key: 'k1', callerSub: 'alice' }));
    });
  });

  describe('update', () => {
    it('writes over the version it read and answers the next ETag', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(aStoredConnector({ version: 2 }));
      connectors.update.mockResolvedValue(true);

      const { body, etag } = await sut.update(PATH, aWriteDto(), CALLER);

      expect(connectors.update).toHaveBeenCalledWith(TX, PATH.botUUID, PATH.serviceUUID, 2, expect.any(Object), expect.any(Array));
      expect(body).toEqual({ message: 'Rest connector updated', data: PATH.serviceUUID });
      expect(etag).toBe('"v3"');
    });

    it('is a 412 when If-Match names another version, and writes nothing', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(aStoredConnector({ version: 2 }));

      await expect(sut.update(PATH, aWriteDto(), CALLER, '"v1"')).rejects.toBeInstanceOf(ConnectorChangedException);
      expect(connectors.update).not.toHaveBeenCalled();
    });

    it('is a 412 when another write lands between the read and the write of an If-Match update', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(aStoredConnector({ version: 2 }));
      connectors.update.mockResolvedValue(false);

      await expect(sut.update(PATH, aWriteDto(), CALLER, '"v2"')).rejects.toBeInstanceOf(ConnectorChangedException);
    });

    it('without If-Match, re-reads and retries a lost race, then gives up with a 409 after three attempts', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(aStoredConnector());
      connectors.update.mockResolvedValue(false);

      await expect(sut.update(PATH, aWriteDto(), CALLER)).rejects.toBeInstanceOf(ConflictException);
      expect(connectors.update).toHaveBeenCalledTimes(3);
      expect(connectors.findActive).toHaveBeenCalledTimes(3);
    });

    it('reads the connector from the primary', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(aStoredConnector());
      connectors.update.mockResolvedValue(true);

      await sut.update(PATH, aWriteDto(), CALLER);

      expect(connectors.findActive).toHaveBeenCalledWith(PATH, 'primary');
    });
  });

  describe('remove', () => {
    it('soft-deletes, recording who and when and freeing the name', async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.softDelete.mockResolvedValue(PATH.serviceUUID);

      await sut.remove(PATH, CALLER);

      expect(connectors.softDelete).toHaveBeenCalledWith(PATH, { deletedAt: expect.any(Date), deletedBy: 'alice', activeNameKey: null });
      expect(scopes.lookup).not.toHaveBeenCalled();
    });

    it('is a 404 when no active connector was deleted', async () => {
      const { sut, connectors } = await newTestService();
      connectors.softDelete.mockResolvedValue(NOT_IN_SCOPE);

      await expect(sut.remove(PATH, CALLER)).rejects.toBeInstanceOf(ConnectorNotFoundException);
    });

    it("is the scope's 404, asked on the primary, when a link of the path is missing", async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.softDelete.mockResolvedValue(NOT_IN_SCOPE);
      scopes.lookup.mockResolvedValue({ ...EVERY_LINK, bot: false });

      await expect(sut.remove(PATH, CALLER)).rejects.toBeInstanceOf(BotNotFoundException);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'primary');
    });
  });
});

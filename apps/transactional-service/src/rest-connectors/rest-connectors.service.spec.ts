import {
  AuthType,
  BotNotFoundException,
  EnvironmentNotFoundException,
  ConsistencyScope,
  ConnectorHistoryRepository,
  connectorSnapshot,
  Database,
  ERRORS_LATER,
  IdempotencyService,
  found,
  NOTHING_AT_PATH,
  RestConnectorRepository,
  ScopeRepository,
  ScopeService,
  SecretCipher,
  Transaction,
} from '@app/domain';
import { Caller } from '@app/platform';
import { Test } from '@nestjs/testing';
import { Author } from './author';
import { RestConnectorsService } from './rest-connectors.service';
import { A_CONNECTOR_PATH, aStoredConnector, aWriteDto } from './testing/connector-factories';
import { MalformedIfMatchException } from './etag';
import {
  ConnectorBusyException,
  ConnectorChangedException,
  ConnectorInTrashException,
  ConnectorNameConflictException,
  ConnectorNotDeletedException,
  ConnectorNotFoundException,
  VersionNotFoundException,
  VersionNotRevertibleException,
} from './rest-connector.exceptions';
import { strictFake } from '../../../../test/support/strict-fake';

const PATH = A_CONNECTOR_PATH;
const CALLER: Caller = { sub: 'alice', username: 'alice', picture: null, orgs: ['*'], scopes: ['connectors:write'] };
const AUTHOR: Author = { caller: CALLER, requestId: 'request-1', reason: null };
const duplicateKey = () => Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });
/** What the INSERT of a connector whose bot is not at the path fails with (its bot's uuid read as NULL). */
const nullRefused = () => Object.assign(new Error("Column 'bot_uuid' cannot be null"), { code: 'ER_BAD_NULL_ERROR' });
const NO_BOT = { organization: true, environment: true, bot: false };

/** The unit of work's transaction the fake database hands to the work. */
const TX: Transaction = { rows: jest.fn(), run: jest.fn(), defer: { write: jest.fn(), insert: jest.fn(), upsert: jest.fn() } };
const EVERY_LINK = { organization: true, environment: true, bot: true };
/** A stored bearer connector at version 2 with an Accept header, its token sealed as given. */
const aBearerConnector = (bearerToken: string) =>
  aStoredConnector({ version: 2, headers: [{ header: 'Accept', value: 'application/json' }], authType: AuthType.AUTH_BEARER, bearerToken });
/** What findForWrite answers: the connector and the record its current version left. */
const forWrite = (connector: ReturnType<typeof aStoredConnector>) => ({ connector, snapshot: connectorSnapshot(connector, [{ name: 'weather' }]) });

/** The service on strict fakes (the real ScopeService over a fake lookup): every rule of a connector write, checked without a database; a call a test did not arrange fails it. */
async function newTestService() {
  const connectors = strictFake(RestConnectorRepository);
  const history = strictFake(ConnectorHistoryRepository);
  history.record.mockReturnValue(ERRORS_LATER);
  history.recordUnchanged.mockResolvedValue();
  const scopes = strictFake(ScopeRepository);
  scopes.lookup.mockResolvedValue(EVERY_LINK);
  const db = strictFake(Database);
  db.transaction.mockImplementation((work) => work(TX));
  const cipher = strictFake(SecretCipher);
  cipher.encrypt.mockImplementation((plaintext: string) => `sealed:${plaintext}`);
  cipher.decrypt.mockImplementation((sealed: string) => sealed.replace(/^sealed:/, ''));
  const idempotency = strictFake(IdempotencyService);
  idempotency.complete.mockResolvedValue();
  idempotency.release.mockResolvedValue();
  const module = await Test.createTestingModule({
    providers: [
      RestConnectorsService,
      ScopeService,
      { provide: Database, useValue: db },
      { provide: RestConnectorRepository, useValue: connectors },
      { provide: ConnectorHistoryRepository, useValue: history },
      { provide: ScopeRepository, useValue: scopes },
      { provide: SecretCipher, useValue: cipher },
      { provide: IdempotencyService, useValue: idempotency },
    ],
  }).compile();
  return { sut: module.get(RestConnectorsService), connectors, history, scopes, db, cipher, idempotency };
}

/**
 * The fake database's unit of work failing as a refused deferred write makes it fail: after the work ran, at the
 * commit (the insert's error is the transaction's, not the insert call's).
 */
function refusedAtCommit(db: jest.Mocked<Database>, error: Error): void {
  db.transaction.mockImplementation(async (work) => {
    await work(TX);
    throw error;
  });
}

describe(RestConnectorsService.name, () => {
  describe('get', () => {
    it('answers the record with its ETag', async () => {
      const { sut, connectors } = await newTestService();
      const flows = [{ uuid: '0190b3a0-0000-7000-8000-000000000001', name: 'Checkout' }];
      connectors.findActiveWithRelations.mockResolvedValue(found({ connector: aStoredConnector({ version: 4 }), tags: [{ name: 'weather' }], flows }));

      const { body, etag } = await sut.get(PATH);

      expect(etag).toBe('"v4"');
      expect(body).toMatchObject({ uuid: PATH.serviceUUID, name: 'Weather forecast', tags: [{ name: 'weather' }], flows });
    });

    it('is a connector 404 when the path holds but the connector does not', async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.findActiveWithRelations.mockResolvedValue(NOTHING_AT_PATH);
      connectors.findAny.mockResolvedValue(NOTHING_AT_PATH);

      const consistency = new ConsistencyScope();

      await expect(sut.get(PATH, consistency)).rejects.toBeInstanceOf(ConnectorNotFoundException);
      // Every read of the get, the 404's too, carries the request's scope: a replica that has what it must see.
      expect(connectors.findActiveWithRelations).toHaveBeenCalledWith(PATH, consistency);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, consistency);
      expect(connectors.findAny).toHaveBeenCalledWith(PATH, consistency);
    });

    it('is a 404 saying the connector is in the trash, with how to restore it, when it is', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActiveWithRelations.mockResolvedValue(NOTHING_AT_PATH);
      connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 7, deletedAt: new Date('2026-11-26T05:00:00.000Z'), deletedBy: 'bob' })));

      await expect(sut.get(PATH)).rejects.toBeInstanceOf(ConnectorInTrashException);
      await expect(sut.get(PATH)).rejects.toThrow(
        /is in the trash \(deleted on 2026-11-26T05:00:00.000Z by bob\): restore it with POST \/platform-transactional-service\/org\/.*\/restore \(If-Match: "v7"/,
      );
    });

    it("is the scope's 404 when a link of the path is missing", async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.findActiveWithRelations.mockResolvedValue(NOTHING_AT_PATH);
      scopes.lookup.mockResolvedValue({ ...EVERY_LINK, bot: false });

      await expect(sut.get(PATH)).rejects.toBeInstanceOf(BotNotFoundException);
    });
  });

  describe('create', () => {
    it('inserts version 1 with a new id, sealing its secrets, and answers the id', async () => {
      const { sut, connectors } = await newTestService();
      connectors.insert.mockReturnValue(ERRORS_LATER);

      const created = await sut.create(PATH, aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 's3cr3t' }), AUTHOR);

      const [tx, , row, tags] = connectors.insert.mock.calls[0];
      expect(tx).toBe(TX);
      expect(row).toMatchObject({ uuid: created.uuid, botUuid: PATH.botUUID, version: 1, bearerToken: 'sealed:s3cr3t', createdBy: 'alice' });
      expect(tags).toEqual([{ name: 'weather', nameKey: 'weather', position: 0 }]);
    });

    it('records version 1, CREATED, in the unit of work of the insert: who, the fields set, the record with placeholders', async () => {
      const { sut, connectors, history } = await newTestService();
      connectors.insert.mockReturnValue(ERRORS_LATER);

      const created = await sut.create(PATH, aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 's3cr3t' }), {
        ...AUTHOR,
        caller: { ...CALLER, picture: 'https://img/a.png' },
        reason: 'Weather for the FAQ bot',
      });

      expect(history.record).toHaveBeenCalledWith(TX, PATH, {
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
        changedFields: ['name', 'requestType', 'url', 'headers', 'contentType', 'authType', 'bearerToken', 'output', 'tags'],
        snapshot: expect.objectContaining({ uuid: created.uuid, bearerToken: '<BEARER_TOKEN>', tags: [{ name: 'weather' }] }),
      });
      expect(JSON.stringify(history.record.mock.calls)).not.toContain('s3cr3t');
    });

    it('records the version in the unit of work whose insert is refused, so none is kept', async () => {
      const { sut, connectors, history, scopes, db } = await newTestService();
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue(NO_BOT);

      await expect(sut.create(PATH, aWriteDto(), AUTHOR)).rejects.toBeInstanceOf(BotNotFoundException);
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(history.record).toHaveBeenCalledWith(TX, PATH, expect.objectContaining({ version: 1 }));
    });

    it('is a 409 naming the name when the database reports a duplicate key', async () => {
      const { sut, connectors, db } = await newTestService();
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, duplicateKey());

      await expect(sut.create(PATH, aWriteDto({ name: 'Taken' }), AUTHOR)).rejects.toBeInstanceOf(ConnectorNameConflictException);
    });

    it('is a 404 naming the missing link, read on the primary, when the insert read no bot at the path', async () => {
      const { sut, connectors, scopes, db } = await newTestService();
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue(NO_BOT);

      await expect(sut.create(PATH, aWriteDto(), AUTHOR)).rejects.toBeInstanceOf(BotNotFoundException);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'primary');
    });

    it("names the path's first missing link when the bot's environment is the one gone", async () => {
      const { sut, connectors, scopes, db } = await newTestService();
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue({ organization: true, environment: false, bot: false });

      await expect(sut.create(PATH, aWriteDto(), AUTHOR)).rejects.toBeInstanceOf(EnvironmentNotFoundException);
    });

    it("keeps the database's error when a NULL was refused while every link of the path is there", async () => {
      const { sut, connectors, db } = await newTestService();
      const refused = nullRefused();
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, refused);

      await expect(sut.create(PATH, aWriteDto(), AUTHOR)).rejects.toBe(refused);
    });

    it("stores an Idempotency-Key's answer in the unit of work that inserts the connector", async () => {
      const { sut, connectors, idempotency, db } = await newTestService();
      idempotency.begin.mockResolvedValue(undefined);
      connectors.insert.mockReturnValue(ERRORS_LATER);

      const created = await sut.create(PATH, aWriteDto(), AUTHOR, { key: 'k1', sentBody: {} });

      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(idempotency.complete).toHaveBeenCalledWith(TX, expect.objectContaining({ key: 'k1' }), { status: 201, body: created });
    });

    it("stores an Idempotency-Key's answer only in the unit of work of the insert, and frees the key when it is refused", async () => {
      const { sut, connectors, idempotency, scopes, db } = await newTestService();
      idempotency.begin.mockResolvedValue(undefined);
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, nullRefused());
      scopes.lookup.mockResolvedValue(NO_BOT);

      await expect(sut.create(PATH, aWriteDto(), AUTHOR, { key: 'k1', sentBody: {} })).rejects.toBeInstanceOf(BotNotFoundException);
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(idempotency.complete).toHaveBeenCalledWith(TX, expect.objectContaining({ key: 'k1' }), expect.anything());
      expect(idempotency.release).toHaveBeenCalled();
    });

    it('replays the first answer of an Idempotency-Key and inserts nothing', async () => {
      const { sut, connectors, idempotency } = await newTestService();
      idempotency.begin.mockResolvedValue({ status: 201, body: { uuid: 'first-uuid' } });

      await expect(sut.create(PATH, aWriteDto(), AUTHOR, { key: 'k1', sentBody: {} })).resolves.toEqual({ uuid: 'first-uuid' });
      expect(connectors.insert).not.toHaveBeenCalled();
    });

    it('releases the Idempotency-Key when the create fails', async () => {
      const { sut, connectors, idempotency, db } = await newTestService();
      idempotency.begin.mockResolvedValue(undefined);
      connectors.insert.mockReturnValue(ERRORS_LATER);
      refusedAtCommit(db, duplicateKey());

      await expect(sut.create(PATH, aWriteDto(), AUTHOR, { key: 'k1', sentBody: {} })).rejects.toBeInstanceOf(ConnectorNameConflictException);
      expect(idempotency.release).toHaveBeenCalledWith(expect.objectContaining({ key: 'k1', callerSub: 'alice' }));
    });
  });

  describe('update', () => {
    it('writes over the version it read and answers the next ETag', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findForWrite.mockResolvedValue(found(forWrite(aStoredConnector({ version: 2 }))));
      connectors.update.mockResolvedValue(true);

      const { body, etag } = await sut.update(PATH, aWriteDto(), AUTHOR);

      expect(connectors.update).toHaveBeenCalledWith(TX, PATH.botUUID, PATH.serviceUUID, { from: 2, to: 3 }, expect.any(Object), null);
      expect(body).toEqual({ message: 'Rest connector updated', data: PATH.serviceUUID });
      expect(etag).toBe('"v3"');
    });

    it('is a 412 when If-Match names another version, and writes nothing', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findForWrite.mockResolvedValue(found(forWrite(aStoredConnector({ version: 2 }))));

      await expect(sut.update(PATH, aWriteDto(), AUTHOR, '"v1"')).rejects.toBeInstanceOf(ConnectorChangedException);
      expect(connectors.update).not.toHaveBeenCalled();
    });

    it('is a 412 naming the version that won when another write lands between the read and the write of an If-Match update', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findForWrite.mockResolvedValue(found(forWrite(aStoredConnector({ version: 2 }))));
      connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 3 })));
      connectors.update.mockResolvedValue(false);

      await expect(sut.update(PATH, aWriteDto(), AUTHOR, '"v2"')).rejects.toThrow(new ConnectorChangedException(PATH.serviceUUID, '"v3"'));
    });

    it('is a 412 naming the current ETag for a stale If-Match, and a 400 for one that is not an ETag, before reading', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findForWrite.mockResolvedValue(found(forWrite(aStoredConnector({ version: 4 }))));

      await expect(sut.update(PATH, aWriteDto(), AUTHOR, '"v3"')).rejects.toThrow('its current ETag is "v4"; read it again, then send If-Match: "v4"');
      connectors.findForWrite.mockClear();
      await expect(sut.update(PATH, aWriteDto(), AUTHOR, 'v4')).rejects.toBeInstanceOf(MalformedIfMatchException);
      expect(connectors.findForWrite).not.toHaveBeenCalled();
      expect(connectors.update).not.toHaveBeenCalled();
    });

    it('without If-Match, re-reads and retries a lost race, then gives up (CONNECTOR_BUSY: a 409) after three attempts', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findForWrite.mockResolvedValue(found(forWrite(aStoredConnector())));
      connectors.update.mockResolvedValue(false);

      await expect(sut.update(PATH, aWriteDto(), AUTHOR)).rejects.toBeInstanceOf(ConnectorBusyException);
      expect(connectors.update).toHaveBeenCalledTimes(3);
      expect(connectors.findForWrite).toHaveBeenCalledTimes(3);
    });

    it('records version N+1, UPDATED, in the same transaction, naming the changed fields and a secret sent anew with another value', async () => {
      const { sut, connectors, history } = await newTestService();
      const stored = aBearerConnector('sealed:old');
      connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));
      connectors.update.mockResolvedValue(true);

      await sut.update(
        PATH,
        aWriteDto({ url: 'https://api.example.com/v2', authType: AuthType.AUTH_BEARER, bearerToken: 'new', tags: [{ name: 'Weather' }] }),
        AUTHOR,
      );

      expect(history.record).toHaveBeenCalledWith(
        TX,
        PATH,
        expect.objectContaining({ version: 3, operation: 'UPDATED', changedFields: ['url', 'bearerToken', 'tags'] }),
      );
      expect(connectors.update.mock.calls[0][5]).toEqual([{ name: 'Weather', nameKey: 'weather', position: 0 }]);
    });

    it('does not name a secret sent again unchanged, nor one kept by its placeholder, and records no version for a lost write', async () => {
      const { sut, connectors, history } = await newTestService();
      const stored = aBearerConnector('sealed:same');
      connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));
      connectors.update.mockResolvedValueOnce(true).mockResolvedValueOnce(true).mockResolvedValue(false);
      connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 3 })));

      await sut.update(PATH, aWriteDto({ url: 'https://api.example.com/v2', authType: AuthType.AUTH_BEARER, bearerToken: 'same' }), AUTHOR);
      await sut.update(PATH, aWriteDto({ url: 'https://api.example.com/v3', authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>' }), AUTHOR);
      await expect(sut.update(PATH, aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'x' }), AUTHOR, '"v2"')).rejects.toBeInstanceOf(
        ConnectorChangedException,
      );

      expect(history.record.mock.calls.map(([, , version]) => version.changedFields)).toEqual([['url'], ['url']]);
    });

    it('writes nothing for a write that changes no field (a secret sent again unchanged, or kept by its placeholder) and answers the current ETag', async () => {
      const { sut, connectors, history } = await newTestService();
      const stored = aBearerConnector('sealed:same');
      connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));
      const same = { headers: [{ header: 'Accept', value: 'application/json' }], authType: AuthType.AUTH_BEARER };

      const resent = await sut.update(PATH, aWriteDto({ ...same, bearerToken: 'same' }), AUTHOR);
      const kept = await sut.update(PATH, aWriteDto({ ...same, bearerToken: '<BEARER_TOKEN>' }), AUTHOR, '"v2"');

      expect([resent, kept]).toEqual([
        { body: { message: 'Rest connector unchanged', data: PATH.serviceUUID }, etag: '"v2"' },
        { body: { message: 'Rest connector unchanged', data: PATH.serviceUUID }, etag: '"v2"' },
      ]);
      expect(connectors.update).not.toHaveBeenCalled();
      expect(history.record).not.toHaveBeenCalled();
      // If-Match is checked all the same: a write that would change nothing is still a 412 from another version.
      await expect(sut.update(PATH, aWriteDto({ ...same, bearerToken: 'same' }), AUTHOR, '"v1"')).rejects.toThrow(
        new ConnectorChangedException(PATH.serviceUUID, '"v2"'),
      );
    });

    it('reads the connector from the primary', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findForWrite.mockResolvedValue(found(forWrite(aStoredConnector())));
      connectors.update.mockResolvedValue(true);

      await sut.update(PATH, aWriteDto(), AUTHOR);

      expect(connectors.findForWrite).toHaveBeenCalledWith(PATH);
    });
  });

  describe('revert', () => {
    const VERSION_PATH = { ...PATH, version: 1 };
    /** Version 1 of the stored connector: its record before a later write changed the URL. */
    const versionOne = (stored: ReturnType<typeof aStoredConnector>) => found({ ...forWrite({ ...stored, url: 'https://api.example.com/v1' }), version: 1 });

    it("writes the version's record back as an UPDATED version naming it, the stored secret kept by its placeholder", async () => {
      const { sut, connectors, history } = await newTestService();
      const stored = aStoredConnector({ version: 3, authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:kept', url: 'https://api.example.com/v3' });
      history.one.mockResolvedValue(versionOne(stored) as never);
      connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));
      connectors.update.mockResolvedValue(true);

      const { body, etag } = await sut.revert(VERSION_PATH, { ...AUTHOR, reason: 'v3 broke the FAQ flow' }, '"v3"');

      expect(history.one).toHaveBeenCalledWith(PATH, 1, 'primary');
      expect(connectors.update.mock.calls[0][4]).toMatchObject({ url: 'https://api.example.com/v1', bearerToken: 'sealed:kept' });
      expect(history.record).toHaveBeenCalledWith(
        TX,
        PATH,
        expect.objectContaining({ version: 4, operation: 'UPDATED', revertedTo: 1, reason: 'v3 broke the FAQ flow', changedFields: ['url'] }),
      );
      expect({ body, etag }).toEqual({ body: { message: 'Rest connector reverted to version 1', data: PATH.serviceUUID }, etag: '"v4"' });
    });

    it('is a 409 saying why when the version needs a secret that is no longer stored, and writes nothing', async () => {
      const { sut, connectors, history } = await newTestService();
      const stored = aStoredConnector({ version: 3, url: 'https://api.example.com/v3' });
      history.one.mockResolvedValue(
        found({ ...forWrite(aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:gone' })), version: 1 }) as never,
      );
      connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));

      await expect(sut.revert(VERSION_PATH, AUTHOR)).rejects.toThrow(
        new VersionNotRevertibleException(PATH.serviceUUID, 1, [
          'bearerToken must be the secret itself: <BEARER_TOKEN> only stands for a stored one, and none is stored',
        ]),
      );
      expect(connectors.update).not.toHaveBeenCalled();
    });

    it('is a 404 for a version the connector does not have, and for a connector not at the path', async () => {
      const { sut, history } = await newTestService();
      history.one.mockResolvedValueOnce(found(null)).mockResolvedValueOnce(NOTHING_AT_PATH);

      await expect(sut.revert(VERSION_PATH, AUTHOR)).rejects.toBeInstanceOf(VersionNotFoundException);
      await expect(sut.revert(VERSION_PATH, AUTHOR)).rejects.toBeInstanceOf(ConnectorNotFoundException);
    });
  });

  describe('remove', () => {
    it("soft-deletes the version it read on the primary, recording who and when and freeing the name, and answers the trash version's ETag", async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(found(aStoredConnector({ version: 3 })));
      connectors.softDelete.mockResolvedValue(true);

      const etag = await sut.remove(PATH, AUTHOR);

      expect(connectors.findActive).toHaveBeenCalledWith(PATH, 'primary');
      expect(connectors.softDelete).toHaveBeenCalledWith(
        TX,
        PATH,
        { from: 3, to: 4 },
        { deletedAt: expect.any(Date), deletedBy: 'alice', activeNameKey: null },
      );
      expect(etag).toBe('"v4"');
    });

    it('records the DELETED version in the transaction of the delete, and none when nothing was deleted', async () => {
      const { sut, connectors, history } = await newTestService();
      connectors.findActive.mockResolvedValueOnce(found(aStoredConnector())).mockResolvedValue(NOTHING_AT_PATH);
      connectors.findAny.mockResolvedValue(NOTHING_AT_PATH);
      connectors.softDelete.mockResolvedValue(true);

      await sut.remove(PATH, { ...AUTHOR, reason: 'The vendor retired the API' });
      await expect(sut.remove(PATH, AUTHOR)).rejects.toBeInstanceOf(ConnectorNotFoundException);

      expect(history.recordUnchanged).toHaveBeenCalledTimes(1);
      expect(history.recordUnchanged).toHaveBeenCalledWith(TX, PATH, PATH.serviceUUID, expect.objectContaining({ to: expect.any(Number) }), 'DELETED', {
        updatedAt: expect.any(Date),
        updatedBy: 'alice',
        updatedByImage: null,
        updatedBySub: 'alice',
        requestId: 'request-1',
        reason: 'The vendor retired the API',
      });
    });

    it('honours If-Match: a 412 naming the current ETag for another version, deleting nothing', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValue(found(aStoredConnector({ version: 4 })));

      await expect(sut.remove(PATH, AUTHOR, '"v99"')).rejects.toThrow(new ConnectorChangedException(PATH.serviceUUID, '"v4"'));
      expect(connectors.softDelete).not.toHaveBeenCalled();
    });

    it('with If-Match, is a 412 when another write lands first; without, retries from the newest version', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findActive.mockResolvedValueOnce(found(aStoredConnector({ version: 4 }))).mockResolvedValue(found(aStoredConnector({ version: 5 })));
      connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 5 })));
      connectors.softDelete.mockResolvedValueOnce(false).mockResolvedValueOnce(false).mockResolvedValue(true);

      await expect(sut.remove(PATH, AUTHOR, '"v4"')).rejects.toThrow(new ConnectorChangedException(PATH.serviceUUID, '"v5"'));
      await expect(sut.remove(PATH, AUTHOR)).resolves.toBe('"v6"');
      expect(connectors.softDelete).toHaveBeenLastCalledWith(TX, PATH, { from: 5, to: 6 }, expect.anything());
    });

    it("is the scope's 404, asked on the primary, when a link of the path is missing", async () => {
      const { sut, connectors, scopes } = await newTestService();
      connectors.findActive.mockResolvedValue(NOTHING_AT_PATH);
      scopes.lookup.mockResolvedValue({ ...EVERY_LINK, bot: false });

      await expect(sut.remove(PATH, AUTHOR)).rejects.toBeInstanceOf(BotNotFoundException);
      expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'primary');
    });
  });

  describe('restore', () => {
    const deleted = () => aStoredConnector({ version: 4, deletedAt: new Date(), deletedBy: 'bob', activeNameKey: null });

    it('restores the deleted version it read, records RESTORED in the same transaction and answers the next ETag', async () => {
      const { sut, connectors, history } = await newTestService();
      connectors.findAny.mockResolvedValue(found(deleted()));
      connectors.restore.mockResolvedValue(true);

      const { body, etag } = await sut.restore(PATH, AUTHOR, '"v4"');

      expect(connectors.findAny).toHaveBeenCalledWith(PATH, 'primary');
      expect(connectors.restore).toHaveBeenCalledWith(TX, PATH, { from: 4, to: 5 }, { deletedAt: null, deletedBy: null, activeNameKey: 'weather forecast' });
      expect(history.recordUnchanged).toHaveBeenCalledWith(
        TX,
        PATH,
        PATH.serviceUUID,
        { from: 4, to: 5 },
        'RESTORED',
        expect.objectContaining({ updatedBy: 'alice' }),
      );
      expect(body).toEqual({ message: 'Rest connector restored', data: PATH.serviceUUID });
      expect(etag).toBe('"v5"');
    });

    it('is a 409 for a connector that is not deleted, a 412 for another version, a 404 for none', async () => {
      const { sut, connectors } = await newTestService();
      connectors.findAny.mockResolvedValueOnce(found(aStoredConnector())).mockResolvedValueOnce(found(deleted())).mockResolvedValueOnce(NOTHING_AT_PATH);

      await expect(sut.restore(PATH, AUTHOR)).rejects.toBeInstanceOf(ConnectorNotDeletedException);
      await expect(sut.restore(PATH, AUTHOR, '"v3"')).rejects.toBeInstanceOf(ConnectorChangedException);
      await expect(sut.restore(PATH, AUTHOR)).rejects.toBeInstanceOf(ConnectorNotFoundException);
      expect(connectors.restore).not.toHaveBeenCalled();
    });

    it('loses a race to another restore: re-reads and finds it active (409); the name taken since is a 409 naming it', async () => {
      const { sut, connectors, history } = await newTestService();
      connectors.findAny
        .mockResolvedValueOnce(found(deleted()))
        .mockResolvedValueOnce(found(aStoredConnector({ version: 5 })))
        .mockResolvedValue(found(deleted()));
      connectors.restore.mockResolvedValueOnce(false).mockRejectedValue(duplicateKey());

      await expect(sut.restore(PATH, AUTHOR)).rejects.toBeInstanceOf(ConnectorNotDeletedException);
      await expect(sut.restore(PATH, AUTHOR)).rejects.toThrow('A rest connector named "Weather forecast" already exists in this bot');
      expect(history.recordUnchanged).not.toHaveBeenCalled();
    });
  });
});

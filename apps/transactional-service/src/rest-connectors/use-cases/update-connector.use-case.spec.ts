import { AuthType, connectorSnapshot, found } from '@app/domain';
import { MalformedIfMatchException } from '../etag';
import { ConnectorBusyException, ConnectorChangedException } from '../rest-connector.exceptions';
import { A_CONNECTOR_PATH, aStoredConnector, aWriteDto } from '../testing/connector-factories';
import { AUTHOR, newTestService, TX } from '../../../../../test/support/connector-test-service';
import { UpdateConnector } from './update-connector.use-case';

const PATH = A_CONNECTOR_PATH;
/** A stored bearer connector at version 2 with an Accept header, its token sealed as given. */
const aBearerConnector = (bearerToken: string) =>
  aStoredConnector({ version: 2, headers: [{ header: 'Accept', value: 'application/json' }], authType: AuthType.AUTH_BEARER, bearerToken });
/** What findForWrite answers: the connector and the record its current version left. */
const forWrite = (connector: ReturnType<typeof aStoredConnector>) => found({ connector, snapshot: connectorSnapshot(connector, [{ name: 'weather' }]) });

describe(UpdateConnector.name, () => {
  it('writes over the version it read on the primary and answers the next ETag', async () => {
    const { sut, connectors } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector({ version: 2 })));
    connectors.update.mockResolvedValue(true);

    const { body, etag } = await sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR });

    expect(connectors.findForWrite).toHaveBeenCalledWith(PATH);
    expect(connectors.update).toHaveBeenCalledWith(TX, PATH.botUUID, PATH.serviceUUID, { from: 2, to: 3 }, expect.any(Object), null);
    expect(body).toEqual({ message: 'Rest connector updated', data: PATH.serviceUUID });
    expect(etag).toBe('"v3"');
  });

  it('is a 412 when If-Match names another version, and writes nothing', async () => {
    const { sut, connectors } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector({ version: 2 })));

    await expect(sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR, ifMatch: '"v1"' })).rejects.toBeInstanceOf(ConnectorChangedException);
    expect(connectors.update).not.toHaveBeenCalled();
  });

  it('is a 412 naming the version that won when another write lands between the read and the write of an If-Match update', async () => {
    const { sut, connectors } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector({ version: 2 })));
    connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 3 })));
    connectors.update.mockResolvedValue(false);

    await expect(sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR, ifMatch: '"v2"' })).rejects.toThrow(
      new ConnectorChangedException(PATH.serviceUUID, '"v3"'),
    );
  });

  it('is a 412 naming the current ETag for a stale If-Match, and a 400 for one that is not an ETag, before reading', async () => {
    const { sut, connectors } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector({ version: 4 })));

    await expect(sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR, ifMatch: '"v3"' })).rejects.toThrow(
      'its current ETag is "v4"; read it again, then send If-Match: "v4"',
    );
    connectors.findForWrite.mockClear();
    await expect(sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR, ifMatch: 'v4' })).rejects.toBeInstanceOf(MalformedIfMatchException);
    expect(connectors.findForWrite).not.toHaveBeenCalled();
    expect(connectors.update).not.toHaveBeenCalled();
  });

  it('holds the environment when the write refers to it: changed since it was read, checks again with the new one, with If-Match too; three times, then 409', async () => {
    const { sut, connectors, variables } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector({ version: 2 })));
    connectors.update.mockResolvedValue(true);
    const base = {
      name: 'BASE_URL',
      secret: false,
      value: 'https://api.example.com',
      sealedValue: null,
      destinations: [],
      updatedAt: new Date(),
      updatedBy: 'bob',
    };
    variables.findSet.mockResolvedValueOnce(found({ version: 3, variables: [base] })).mockResolvedValue(found({ version: 4, variables: [base] }));
    variables.sharedVersion.mockResolvedValueOnce(4).mockResolvedValue(4);
    const dto = aWriteDto({ url: '{{env.BASE_URL}}/items' });

    await expect(sut.execute({ path: PATH, dto, author: AUTHOR, ifMatch: '"v2"' })).resolves.toMatchObject({ etag: '"v3"' });
    expect(variables.sharedVersion).toHaveBeenNthCalledWith(1, TX, PATH);
    expect(variables.findSet).toHaveBeenCalledTimes(2);
    expect(connectors.update).toHaveBeenCalledTimes(1);

    variables.findSet.mockResolvedValue(found({ version: 4, variables: [base] }));
    variables.sharedVersion.mockResolvedValue(5);
    await expect(sut.execute({ path: PATH, dto, author: AUTHOR })).rejects.toMatchObject({ code: 'CONNECTOR_VARIABLES_BUSY' });
    expect(connectors.update).toHaveBeenCalledTimes(1);
  });

  it('sends no statement for the environment when neither the stored nor the new connector refers to it', async () => {
    const { sut, connectors, variables } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector({ version: 2 })));
    connectors.update.mockResolvedValue(true);

    await sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR });
    expect(variables.sharedVersion).not.toHaveBeenCalled();
  });

  it('without If-Match, re-reads and retries a lost race, then gives up (CONNECTOR_BUSY: a 409) after three attempts', async () => {
    const { sut, connectors } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aStoredConnector()));
    connectors.update.mockResolvedValue(false);

    await expect(sut.execute({ path: PATH, dto: aWriteDto(), author: AUTHOR })).rejects.toBeInstanceOf(ConnectorBusyException);
    expect(connectors.update).toHaveBeenCalledTimes(3);
    expect(connectors.findForWrite).toHaveBeenCalledTimes(3);
  });

  it('records version N+1, UPDATED, naming the changed fields and a secret sent anew, and appends its event beside it in the same transaction', async () => {
    const { sut, connectors, history, outbox } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aBearerConnector('sealed:old')));
    connectors.update.mockResolvedValue(true);

    await sut.execute({
      path: PATH,
      dto: aWriteDto({ url: 'https://api.example.com/v2', authType: AuthType.AUTH_BEARER, bearerToken: 'new', tags: [{ name: 'Weather' }] }),
      author: AUTHOR,
    });

    const version = expect.objectContaining({
      connectorUuid: PATH.serviceUUID,
      version: 3,
      operation: 'UPDATED',
      changedFields: ['url', 'bearerToken', 'tags'],
    });
    expect(history.record).toHaveBeenCalledWith(TX, version);
    expect(outbox.append).toHaveBeenCalledWith(TX, PATH, version);
    expect(connectors.update.mock.calls[0][5]).toEqual([{ name: 'Weather', nameKey: 'weather', position: 0 }]);
  });

  it('does not name a secret sent again unchanged, nor one kept by its placeholder, and records nothing for a lost write', async () => {
    const { sut, connectors, history, outbox } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aBearerConnector('sealed:same')));
    connectors.update.mockResolvedValueOnce(true).mockResolvedValueOnce(true).mockResolvedValue(false);
    connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 3 })));

    await sut.execute({
      path: PATH,
      dto: aWriteDto({ url: 'https://api.example.com/v2', authType: AuthType.AUTH_BEARER, bearerToken: 'same' }),
      author: AUTHOR,
    });
    await sut.execute({
      path: PATH,
      dto: aWriteDto({ url: 'https://api.example.com/v3', authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>' }),
      author: AUTHOR,
    });
    await expect(
      sut.execute({ path: PATH, dto: aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'x' }), author: AUTHOR, ifMatch: '"v2"' }),
    ).rejects.toBeInstanceOf(ConnectorChangedException);

    expect(history.record.mock.calls.map(([, version]) => version.changedFields)).toEqual([['url'], ['url']]);
    expect(outbox.append).toHaveBeenCalledTimes(2);
  });

  it('writes nothing for a write that changes no field (a secret sent again unchanged, or kept by its placeholder) and answers the current ETag', async () => {
    const { sut, connectors, history, outbox } = await newTestService(UpdateConnector);
    connectors.findForWrite.mockResolvedValue(forWrite(aBearerConnector('sealed:same')));
    const same = { headers: [{ header: 'Accept', value: 'application/json' }], authType: AuthType.AUTH_BEARER };

    const resent = await sut.execute({ path: PATH, dto: aWriteDto({ ...same, bearerToken: 'same' }), author: AUTHOR });
    const kept = await sut.execute({ path: PATH, dto: aWriteDto({ ...same, bearerToken: '<BEARER_TOKEN>' }), author: AUTHOR, ifMatch: '"v2"' });

    expect([resent, kept]).toEqual([
      { body: { message: 'Rest connector unchanged', data: PATH.serviceUUID }, etag: '"v2"' },
      { body: { message: 'Rest connector unchanged', data: PATH.serviceUUID }, etag: '"v2"' },
    ]);
    expect(connectors.update).not.toHaveBeenCalled();
    expect(history.record).not.toHaveBeenCalled();
    expect(outbox.append).not.toHaveBeenCalled();
    // If-Match is checked all the same: a write that would change nothing is still a 412 from another version.
    await expect(sut.execute({ path: PATH, dto: aWriteDto({ ...same, bearerToken: 'same' }), author: AUTHOR, ifMatch: '"v1"' })).rejects.toThrow(
      new ConnectorChangedException(PATH.serviceUUID, '"v2"'),
    );
  });
});

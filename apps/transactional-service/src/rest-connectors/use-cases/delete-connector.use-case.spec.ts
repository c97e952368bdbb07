import { BotNotFoundException, found, NOTHING_AT_PATH } from '@app/domain';
import { ConnectorChangedException, ConnectorNotFoundException } from '../rest-connector.exceptions';
import { A_CONNECTOR_PATH, aStoredConnector } from '../testing/connector-factories';
import { AUTHOR, EVERY_LINK, newTestService, TX } from '../../../../../test/support/connector-test-service';
import { DeleteConnector } from './delete-connector.use-case';

const PATH = A_CONNECTOR_PATH;

describe(DeleteConnector.name, () => {
  it("soft-deletes the version it read on the primary, recording who and when and freeing the name, and answers the trash version's ETag", async () => {
    const { sut, connectors } = await newTestService(DeleteConnector);
    connectors.findActive.mockResolvedValue(found(aStoredConnector({ version: 3 })));
    connectors.softDelete.mockResolvedValue(true);

    const etag = await sut.execute({ path: PATH, author: AUTHOR });

    expect(connectors.findActive).toHaveBeenCalledWith(PATH, 'primary');
    expect(connectors.softDelete).toHaveBeenCalledWith(TX, PATH, { from: 3, to: 4 }, { deletedAt: expect.any(Date), deletedBy: 'alice', activeNameKey: null });
    expect(etag).toBe('"v4"');
  });

  it('records the DELETED version and appends its event in the transaction of the delete, and neither when nothing was deleted', async () => {
    const { sut, connectors, history, outbox } = await newTestService(DeleteConnector);
    connectors.findActive.mockResolvedValueOnce(found(aStoredConnector({ version: 3 }))).mockResolvedValue(NOTHING_AT_PATH);
    connectors.findAny.mockResolvedValue(NOTHING_AT_PATH);
    connectors.softDelete.mockResolvedValue(true);

    await sut.execute({ path: PATH, author: { ...AUTHOR, reason: 'The vendor retired the API' } });
    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toBeInstanceOf(ConnectorNotFoundException);

    const author = {
      updatedAt: expect.any(Date),
      updatedBy: 'alice',
      updatedByImage: null,
      updatedBySub: 'alice',
      requestId: 'request-1',
      reason: 'The vendor retired the API',
      promotionId: null,
    };
    expect(history.recordUnchanged).toHaveBeenCalledTimes(1);
    expect(history.recordUnchanged).toHaveBeenCalledWith(TX, PATH.serviceUUID, { from: 3, to: 4 }, 'DELETED', author);
    expect(outbox.append).toHaveBeenCalledTimes(1);
    expect(outbox.append).toHaveBeenCalledWith(TX, PATH, {
      connectorUuid: PATH.serviceUUID,
      version: 4,
      updatedAt: history.recordUnchanged.mock.calls[0][4].updatedAt,
    });
  });

  it('honours If-Match: a 412 naming the current ETag for another version, deleting nothing', async () => {
    const { sut, connectors } = await newTestService(DeleteConnector);
    connectors.findActive.mockResolvedValue(found(aStoredConnector({ version: 4 })));

    await expect(sut.execute({ path: PATH, author: AUTHOR, ifMatch: '"v99"' })).rejects.toThrow(new ConnectorChangedException(PATH.serviceUUID, '"v4"'));
    expect(connectors.softDelete).not.toHaveBeenCalled();
  });

  it('with If-Match, is a 412 when another write lands first; without, retries from the newest version', async () => {
    const { sut, connectors } = await newTestService(DeleteConnector);
    connectors.findActive.mockResolvedValueOnce(found(aStoredConnector({ version: 4 }))).mockResolvedValue(found(aStoredConnector({ version: 5 })));
    connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 5 })));
    connectors.softDelete.mockResolvedValueOnce(false).mockResolvedValueOnce(false).mockResolvedValue(true);

    await expect(sut.execute({ path: PATH, author: AUTHOR, ifMatch: '"v4"' })).rejects.toThrow(new ConnectorChangedException(PATH.serviceUUID, '"v5"'));
    await expect(sut.execute({ path: PATH, author: AUTHOR })).resolves.toBe('"v6"');
    expect(connectors.softDelete).toHaveBeenLastCalledWith(TX, PATH, { from: 5, to: 6 }, expect.anything());
  });

  it("is the scope's 404, asked on the primary, when a link of the path is missing", async () => {
    const { sut, connectors, scopes } = await newTestService(DeleteConnector);
    connectors.findActive.mockResolvedValue(NOTHING_AT_PATH);
    scopes.lookup.mockResolvedValue({ ...EVERY_LINK, bot: false });

    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toBeInstanceOf(BotNotFoundException);
    expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'primary');
  });
});

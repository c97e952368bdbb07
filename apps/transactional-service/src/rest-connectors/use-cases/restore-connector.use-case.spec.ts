import { found, NOTHING_AT_PATH } from '@app/domain';
import { ConnectorChangedException, ConnectorNotDeletedException, ConnectorNotFoundException } from '../rest-connector.exceptions';
import { A_CONNECTOR_PATH, aStoredConnector } from '../testing/connector-factories';
import { AUTHOR, duplicateKey, newTestService, TX } from '../../../../../test/support/connector-test-service';
import { RestoreConnector } from './restore-connector.use-case';

const PATH = A_CONNECTOR_PATH;
const deleted = () => aStoredConnector({ version: 4, deletedAt: new Date(), deletedBy: 'bob', activeNameKey: null });

describe(RestoreConnector.name, () => {
  it('restores the deleted version it read, records RESTORED and appends its event in the same transaction, and answers the next ETag', async () => {
    const { sut, connectors, history, outbox } = await newTestService(RestoreConnector);
    connectors.findAny.mockResolvedValue(found(deleted()));
    connectors.restore.mockResolvedValue(true);

    const { body, etag } = await sut.execute({ path: PATH, author: AUTHOR, ifMatch: '"v4"' });

    expect(connectors.findAny).toHaveBeenCalledWith(PATH, 'primary');
    expect(connectors.restore).toHaveBeenCalledWith(TX, PATH, { from: 4, to: 5 }, { deletedAt: null, deletedBy: null, activeNameKey: 'weather forecast' });
    expect(history.recordUnchanged).toHaveBeenCalledWith(TX, PATH.serviceUUID, { from: 4, to: 5 }, 'RESTORED', expect.objectContaining({ updatedBy: 'alice' }));
    expect(outbox.append).toHaveBeenCalledWith(TX, PATH, { connectorUuid: PATH.serviceUUID, version: 5, updatedAt: expect.any(Date) });
    expect(body).toEqual({ message: 'Rest connector restored', data: PATH.serviceUUID });
    expect(etag).toBe('"v5"');
  });

  it('is a 409 for a connector that is not deleted, a 412 for another version, a 404 for none', async () => {
    const { sut, connectors } = await newTestService(RestoreConnector);
    connectors.findAny.mockResolvedValueOnce(found(aStoredConnector())).mockResolvedValueOnce(found(deleted())).mockResolvedValueOnce(NOTHING_AT_PATH);

    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toBeInstanceOf(ConnectorNotDeletedException);
    await expect(sut.execute({ path: PATH, author: AUTHOR, ifMatch: '"v3"' })).rejects.toBeInstanceOf(ConnectorChangedException);
    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toBeInstanceOf(ConnectorNotFoundException);
    expect(connectors.restore).not.toHaveBeenCalled();
  });

  it('loses a race to another restore: re-reads and finds it active (409); the name taken since is a 409 naming it', async () => {
    const { sut, connectors, history, outbox } = await newTestService(RestoreConnector);
    connectors.findAny
      .mockResolvedValueOnce(found(deleted()))
      .mockResolvedValueOnce(found(aStoredConnector({ version: 5 })))
      .mockResolvedValue(found(deleted()));
    connectors.restore.mockResolvedValueOnce(false).mockRejectedValue(duplicateKey());

    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toBeInstanceOf(ConnectorNotDeletedException);
    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toThrow('A rest connector named "Weather forecast" already exists in this bot');
    expect(history.recordUnchanged).not.toHaveBeenCalled();
    expect(outbox.append).not.toHaveBeenCalled();
  });

  it('is a 400 when what it needs of its environment as it is now no longer holds: a secret variable it sends bound elsewhere', async () => {
    const { sut, connectors, variables } = await newTestService(RestoreConnector);
    connectors.findAny.mockResolvedValue(found(aStoredConnector({ ...deleted(), headers: [{ header: 'X-Key', value: '{{env.KEY}}' }] })));
    const key = { name: 'KEY', secret: true, value: null, sealedValue: 'sealed', updatedAt: new Date(), updatedBy: 'bob' };
    variables.findSet.mockResolvedValue(found({ version: 3, variables: [{ ...key, destinations: ['https://other.example.com'] }] }));

    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toMatchObject({
      problems: [
        expect.stringMatching(
          /^\{\{env\.KEY\}\} is a secret connector variable bound to https:\/\/other\.example\.com, and url goes to https:\/\/api\.example\.com/,
        ),
      ],
    });
    expect(variables.findSet).toHaveBeenCalledWith(PATH, 'primary');
    expect(connectors.restore).not.toHaveBeenCalled();

    variables.findSet.mockResolvedValue(found({ version: 4, variables: [{ ...key, destinations: ['https://api.example.com'] }] }));
    variables.sharedVersion.mockResolvedValue(4);
    connectors.restore.mockResolvedValue(true);
    await expect(sut.execute({ path: PATH, author: AUTHOR })).resolves.toMatchObject({ etag: '"v5"' });
    expect(variables.sharedVersion).toHaveBeenCalledWith(TX, PATH);
  });

  it('holds the environment it was checked against in its unit of work: changed since, it is checked again with the new one (a 400 then)', async () => {
    const { sut, connectors, variables } = await newTestService(RestoreConnector);
    connectors.findAny.mockResolvedValue(found(aStoredConnector({ ...deleted(), headers: [{ header: 'X-Key', value: '{{env.KEY}}' }] })));
    const key = { name: 'KEY', secret: true, value: null, sealedValue: 'sealed', updatedAt: new Date(), updatedBy: 'bob' };
    variables.findSet
      .mockResolvedValueOnce(found({ version: 4, variables: [{ ...key, destinations: ['https://api.example.com'] }] }))
      .mockResolvedValue(found({ version: 5, variables: [{ ...key, destinations: ['https://other.example.com'] }] }));
    // A variables write committed between the read and the unit of work.
    variables.sharedVersion.mockResolvedValue(5);

    await expect(sut.execute({ path: PATH, author: AUTHOR })).rejects.toMatchObject({
      problems: [expect.stringMatching(/^\{\{env\.KEY\}\} is a secret connector variable bound to https:\/\/other\.example\.com/)],
    });
    expect(variables.findSet).toHaveBeenCalledTimes(2);
    expect(connectors.restore).not.toHaveBeenCalled();
  });

  it('takes no lock for a connector that does not refer to its environment', async () => {
    const { sut, connectors, variables } = await newTestService(RestoreConnector);
    connectors.findAny.mockResolvedValue(found(deleted()));
    connectors.restore.mockResolvedValue(true);

    await expect(sut.execute({ path: PATH, author: AUTHOR })).resolves.toMatchObject({ etag: '"v5"' });
    expect(variables.sharedVersion).not.toHaveBeenCalled();
  });
});

import { AuthType, connectorSnapshot, found, NOTHING_AT_PATH } from '@app/domain';
import { ConnectorNotFoundException, VersionNotFoundException, VersionNotRevertibleException } from '../rest-connector.exceptions';
import { A_CONNECTOR_PATH, aStoredConnector } from '../testing/connector-factories';
import { AUTHOR, newTestService, TX } from '../../../../../test/support/connector-test-service';
import { RevertConnector } from './revert-connector.use-case';

const PATH = A_CONNECTOR_PATH;
const VERSION_PATH = { ...PATH, version: 1 };
/** What findForWrite answers: the connector and the record its current version left. */
const forWrite = (connector: ReturnType<typeof aStoredConnector>) => ({ connector, snapshot: connectorSnapshot(connector, [{ name: 'weather' }]) });
/** Version 1 of the stored connector: its record before a later write changed the URL. */
const versionOne = (stored: ReturnType<typeof aStoredConnector>) => found({ ...forWrite({ ...stored, url: 'https://api.example.com/v1' }), version: 1 });

describe(RevertConnector.name, () => {
  it("writes the version's record back as an UPDATED version naming it, with its event, the stored secret kept by its placeholder", async () => {
    const { sut, connectors, history, outbox } = await newTestService(RevertConnector);
    const stored = aStoredConnector({ version: 3, authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:kept', url: 'https://api.example.com/v3' });
    history.one.mockResolvedValue(versionOne(stored) as never);
    connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));
    connectors.update.mockResolvedValue(true);

    const { body, etag } = await sut.execute({ path: VERSION_PATH, author: { ...AUTHOR, reason: 'v3 broke the FAQ flow' }, ifMatch: '"v3"' });

    expect(history.one).toHaveBeenCalledWith(PATH, 1, 'primary');
    expect(connectors.update.mock.calls[0][4]).toMatchObject({ url: 'https://api.example.com/v1', bearerToken: 'sealed:kept' });
    const version = expect.objectContaining({ version: 4, operation: 'UPDATED', revertedTo: 1, reason: 'v3 broke the FAQ flow', changedFields: ['url'] });
    expect(history.record).toHaveBeenCalledWith(TX, version);
    expect(outbox.append).toHaveBeenCalledWith(TX, PATH, version);
    expect({ body, etag }).toEqual({ body: { message: 'Rest connector reverted to version 1', data: PATH.serviceUUID }, etag: '"v4"' });
  });

  it('is a 409 saying why when the version needs a secret that is no longer stored, and writes nothing', async () => {
    const { sut, connectors, history } = await newTestService(RevertConnector);
    const stored = aStoredConnector({ version: 3, url: 'https://api.example.com/v3' });
    history.one.mockResolvedValue(
      found({ ...forWrite(aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:gone' })), version: 1 }) as never,
    );
    connectors.findForWrite.mockResolvedValue(found(forWrite(stored)));

    await expect(sut.execute({ path: VERSION_PATH, author: AUTHOR })).rejects.toThrow(
      new VersionNotRevertibleException(PATH.serviceUUID, 1, [
        'bearerToken must be the secret itself: <BEARER_TOKEN> only stands for a stored one, and none is stored',
      ]),
    );
    expect(connectors.update).not.toHaveBeenCalled();
  });

  it('is a 404 for a version the connector does not have, and for a connector not at the path', async () => {
    const { sut, history } = await newTestService(RevertConnector);
    history.one.mockResolvedValueOnce(found(null)).mockResolvedValueOnce(NOTHING_AT_PATH);

    await expect(sut.execute({ path: VERSION_PATH, author: AUTHOR })).rejects.toBeInstanceOf(VersionNotFoundException);
    await expect(sut.execute({ path: VERSION_PATH, author: AUTHOR })).rejects.toBeInstanceOf(ConnectorNotFoundException);
  });
});

import { BotNotFoundException, ConsistencyScope, found, NOTHING_AT_PATH } from '@app/domain';
import { RestConnectorsService } from './rest-connectors.service';
import { ConnectorInTrashException, ConnectorNotFoundException } from './rest-connector.exceptions';
import { A_CONNECTOR_PATH, aStoredConnector } from './testing/connector-factories';
import { EVERY_LINK, newTestService } from '../../../../test/support/connector-test-service';

const PATH = A_CONNECTOR_PATH;

describe(RestConnectorsService.name, () => {
  describe('get', () => {
    it('answers the record with its ETag', async () => {
      const { sut, connectors } = await newTestService(RestConnectorsService);
      const flows = [{ uuid: '0190b3a0-0000-7000-8000-000000000001', name: 'Checkout' }];
      connectors.findActiveWithRelations.mockResolvedValue(found({ connector: aStoredConnector({ version: 4 }), tags: [{ name: 'weather' }], flows }));

      const { body, etag } = await sut.get(PATH);

      expect(etag).toBe('"v4"');
      expect(body).toMatchObject({ uuid: PATH.serviceUUID, name: 'Weather forecast', tags: [{ name: 'weather' }], flows });
    });

    it('is a connector 404 when the path holds but the connector does not', async () => {
      const { sut, connectors, scopes } = await newTestService(RestConnectorsService);
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
      const { sut, connectors } = await newTestService(RestConnectorsService);
      connectors.findActiveWithRelations.mockResolvedValue(NOTHING_AT_PATH);
      connectors.findAny.mockResolvedValue(found(aStoredConnector({ version: 7, deletedAt: new Date('2026-11-26T05:00:00.000Z'), deletedBy: 'bob' })));

      await expect(sut.get(PATH)).rejects.toBeInstanceOf(ConnectorInTrashException);
      await expect(sut.get(PATH)).rejects.toThrow(
        /is in the trash \(deleted on 2026-11-26T05:00:00.000Z by bob\): restore it with POST \/platform-transactional-service\/org\/.*\/restore \(If-Match: "v7"/,
      );
    });

    it("is the scope's 404 when a link of the path is missing", async () => {
      const { sut, connectors, scopes } = await newTestService(RestConnectorsService);
      connectors.findActiveWithRelations.mockResolvedValue(NOTHING_AT_PATH);
      scopes.lookup.mockResolvedValue({ ...EVERY_LINK, bot: false });

      await expect(sut.get(PATH)).rejects.toBeInstanceOf(BotNotFoundException);
    });
  });

  describe('findAny', () => {
    it('reads the connector in any state on the primary, and is a 404 when the path has none', async () => {
      const { sut, connectors } = await newTestService(RestConnectorsService);
      connectors.findAny.mockResolvedValueOnce(found(aStoredConnector({ deletedAt: new Date(), deletedBy: 'bob' }))).mockResolvedValue(NOTHING_AT_PATH);

      await expect(sut.findAny(PATH)).resolves.toMatchObject({ uuid: PATH.serviceUUID, deletedBy: 'bob' });
      await expect(sut.findAny(PATH)).rejects.toBeInstanceOf(ConnectorNotFoundException);
      expect(connectors.findAny).toHaveBeenCalledWith(PATH, 'primary');
    });
  });
});

import {
  ConnectorPromotionRepository,
  ConnectorVariableRepository,
  connectorSnapshot,
  EnvironmentNotFoundException,
  found,
  InvalidInputError,
  NOTHING_AT_PATH,
  PromotionRequestDto,
  ScopeRepository,
  ScopeService,
} from '@app/domain';
import { strictFake } from '../../../../../test/support/strict-fake';
import { AUTHOR, EVERY_LINK } from '../../../../../test/support/connector-test-service';
import { CreateConnectors } from '../../rest-connectors/use-cases/create-connectors.use-case';
import { DeleteConnector } from '../../rest-connectors/use-cases/delete-connector.use-case';
import { UpdateConnector } from '../../rest-connectors/use-cases/update-connector.use-case';
import { A_BOT_PATH, aStoredConnector } from '../../rest-connectors/testing/connector-factories';
import { EnvironmentChangedException } from '../../rest-connectors/rest-connector.exceptions';
import { PromotionStaleException } from '../promotion.exceptions';
import { PromotionReads } from '../promotion-reads.service';
import { PromoteConnectors } from './promote-connectors.use-case';

const SOURCE = { envUUID: '3c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b03', botUUID: '7bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a08' };
const request = (overrides: Partial<PromotionRequestDto> = {}): PromotionRequestDto => ({ source: SOURCE, ...overrides });

/** PromoteConnectors on strict fakes: only what a test arranges answers; the connectors' writes answer nothing unless arranged. */
function newPromoteConnectors() {
  const scopes = strictFake(ScopeRepository);
  const promotions = strictFake(ConnectorPromotionRepository);
  const variables = strictFake(ConnectorVariableRepository);
  const create = strictFake(CreateConnectors);
  const sut = new PromoteConnectors(
    new ScopeService(scopes),
    promotions,
    variables,
    create,
    strictFake(UpdateConnector),
    strictFake(DeleteConnector),
    strictFake(PromotionReads),
  );
  return { sut, scopes, promotions, variables, create };
}

describe(PromoteConnectors.name, () => {
  it("plans from the source's records and the target's connectors, each read whole on the primary, and the target environment's variables", async () => {
    const { sut, promotions, variables } = newPromoteConnectors();
    const source = aStoredConnector({ uuid: '0192f0a0-0000-7000-8000-0000000000a1', name: 'Weather forecast', description: 'dev' });
    promotions.sourceRecords.mockResolvedValue(found([{ uuid: source.uuid, version: 2, snapshot: connectorSnapshot(source, []) }]));
    promotions.targetsForWrite.mockResolvedValue(found([{ connector: aStoredConnector({ version: 5 }), snapshot: connectorSnapshot(aStoredConnector(), []) }]));
    variables.findSet.mockResolvedValue(found({ version: 1, variables: [] }));

    const plan = await sut.plan(A_BOT_PATH, request());

    expect(promotions.sourceRecords).toHaveBeenCalledWith({ orgUUID: A_BOT_PATH.orgUUID, ...SOURCE });
    expect(promotions.targetsForWrite).toHaveBeenCalledWith(A_BOT_PATH);
    expect(variables.findSet).toHaveBeenCalledWith({ orgUUID: A_BOT_PATH.orgUUID, envUUID: A_BOT_PATH.envUUID }, 'primary');
    expect(plan).toMatchObject({
      source: SOURCE,
      target: { envUUID: A_BOT_PATH.envUUID, botUUID: A_BOT_PATH.botUUID },
      prune: false,
      counts: { create: 0, update: 1, delete: 0, unchanged: 0 },
      variables: { missing: [], withoutValue: [] },
    });
    expect(plan.connectors).toEqual([
      expect.objectContaining({ name: 'Weather forecast', action: 'UPDATE', sourceVersion: 2, targetVersion: 5, changedFields: ['description'], secrets: [] }),
    ]);
  });

  it("is the 404 naming the source's environment when it is not in the path's organization", async () => {
    const { sut, scopes, promotions, variables } = newPromoteConnectors();
    promotions.targetsForWrite.mockResolvedValue(NOTHING_AT_PATH);
    promotions.sourceRecords.mockResolvedValue(NOTHING_AT_PATH);
    variables.findSet.mockResolvedValue(found({ version: 0, variables: [] }));
    scopes.lookup.mockImplementation(async (path) => (path.envUUID === SOURCE.envUUID ? { organization: true, environment: false, bot: false } : EVERY_LINK));

    await expect(sut.plan(A_BOT_PATH, request())).rejects.toThrow(new EnvironmentNotFoundException(A_BOT_PATH.orgUUID, SOURCE.envUUID));
  });

  it('refuses the bot itself as its source, and an apply without a digest, before reading anything', async () => {
    const { sut } = newPromoteConnectors();

    await expect(sut.plan(A_BOT_PATH, request({ source: { envUUID: A_BOT_PATH.envUUID, botUUID: A_BOT_PATH.botUUID } }))).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    await expect(sut.apply({ path: A_BOT_PATH, dto: request({ dryRun: false }), author: AUTHOR })).rejects.toThrow(/^digest is required with dryRun false/);
  });

  it('applies only the plan its digest names: another is a 409, and nothing is prepared or written', async () => {
    const { sut, scopes, promotions, variables, create } = newPromoteConnectors();
    // Both bots there, without connectors.
    scopes.lookup.mockResolvedValue(EVERY_LINK);
    promotions.sourceRecords.mockResolvedValue(NOTHING_AT_PATH);
    promotions.targetsForWrite.mockResolvedValue(NOTHING_AT_PATH);
    variables.findSet.mockResolvedValue(found({ version: 0, variables: [] }));
    create.batch.mockImplementation(async ({ batch }) => {
      await batch();
      return {};
    });
    const stale = `sha256:${'0'.repeat(64)}`;

    await expect(sut.apply({ path: A_BOT_PATH, dto: request({ dryRun: false, digest: stale }), author: AUTHOR })).rejects.toBeInstanceOf(
      PromotionStaleException,
    );
    expect(create.prepare).not.toHaveBeenCalled();
  });

  it("is a 409 PROMOTION_STALE when the target environment's variables changed while it was applied (its unit of work held them)", async () => {
    const { sut, create } = newPromoteConnectors();
    create.batch.mockRejectedValue(new EnvironmentChangedException(A_BOT_PATH.envUUID, 1, 2));

    await expect(sut.apply({ path: A_BOT_PATH, dto: request({ dryRun: false, digest: `sha256:${'0'.repeat(64)}` }), author: AUTHOR })).rejects.toThrow(
      new PromotionStaleException("the target environment's connector variables changed while the promotion was applied; nothing was written"),
    );
  });
});

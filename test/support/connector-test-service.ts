import {
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  ConnectorVariableRepository,
  Database,
  found,
  ERRORS_LATER,
  IdempotencyRepository,
  IdempotencyService,
  RestConnectorRepository,
  ScopeRepository,
  ScopeService,
  SecretCipher,
  Transaction,
} from '@app/domain';
import { Caller } from '@app/platform';
import { Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { strictFake } from './strict-fake';
import { Author } from '../../apps/transactional-service/src/rest-connectors/author';
import { ConnectorEnvironments } from '../../apps/transactional-service/src/rest-connectors/connector-environment';
import { RestConnectorsService } from '../../apps/transactional-service/src/rest-connectors/rest-connectors.service';
import { ConditionalWrites } from '../../apps/transactional-service/src/rest-connectors/use-cases/conditional-writes';
import { CreateConnectors } from '../../apps/transactional-service/src/rest-connectors/use-cases/create-connectors.use-case';
import { DeleteConnector } from '../../apps/transactional-service/src/rest-connectors/use-cases/delete-connector.use-case';
import { RestoreConnector } from '../../apps/transactional-service/src/rest-connectors/use-cases/restore-connector.use-case';
import { RevertConnector } from '../../apps/transactional-service/src/rest-connectors/use-cases/revert-connector.use-case';
import { SecretSealing } from '../../apps/transactional-service/src/rest-connectors/use-cases/secret-sealing';
import { UpdateConnector } from '../../apps/transactional-service/src/rest-connectors/use-cases/update-connector.use-case';

export const CALLER: Caller = { sub: 'alice', username: 'alice', picture: null, orgs: ['*'], scopes: ['connectors:write'] };
export const AUTHOR: Author = { caller: CALLER, requestId: 'request-1', reason: null };
/** Every link of a path (organization, environment, bot) is there. */
export const EVERY_LINK = { organization: true, environment: true, bot: true };
export const duplicateKey = () => Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });

/** The unit of work's transaction the fake database hands to the work. */
export const TX: Transaction = { rows: jest.fn(), run: jest.fn(), defer: { write: jest.fn(), insert: jest.fn(), upsert: jest.fn() } };

/**
 * The fake database's unit of work failing as a refused deferred write makes it fail in production: after the work
 * ran, at the commit (a deferred write's error is the transaction's, not its call's).
 */
export function refusedAtCommit(db: jest.Mocked<Database>, error: Error): void {
  db.transaction.mockImplementation(async (work) => {
    await work(TX);
    throw error;
  });
}

/**
 * A connector service or write use case on strict fakes: the real reads, ScopeService, ConditionalWrites,
 * SecretSealing, IdempotencyService and ConnectorEnvironments over fake repositories (an environment without variables), a cipher that seals `x` as `sealed:x`, and a database
 * that hands TX to the work. Every rule is checked without a database; a call a test did not arrange fails it.
 */
export async function newTestService<T>(sut: Type<T>) {
  const connectors = strictFake(RestConnectorRepository);
  const history = strictFake(ConnectorHistoryRepository);
  history.record.mockReturnValue(ERRORS_LATER);
  history.recordUnchanged.mockResolvedValue();
  const outbox = strictFake(ConnectorEventOutbox);
  outbox.append.mockReturnValue(ERRORS_LATER);
  const scopes = strictFake(ScopeRepository);
  scopes.lookup.mockResolvedValue(EVERY_LINK);
  const db = strictFake(Database);
  db.transaction.mockImplementation((work) => work(TX));
  const cipher = strictFake(SecretCipher);
  cipher.encrypt.mockImplementation((plaintext: string) => `sealed:${plaintext}`);
  cipher.decrypt.mockImplementation((sealed: string) => sealed.replace(/^sealed:/, ''));
  // The path's environment has no connector variables unless a test sets some.
  const variables = strictFake(ConnectorVariableRepository);
  variables.findSet.mockResolvedValue(found({ version: 0, variables: [] }));
  const keys = strictFake(IdempotencyRepository);
  keys.deleteExpired.mockResolvedValue();
  keys.complete.mockResolvedValue();
  keys.release.mockResolvedValue();
  const module = await Test.createTestingModule({
    providers: [
      ...[RestConnectorsService, CreateConnectors, UpdateConnector, RevertConnector, DeleteConnector, RestoreConnector],
      ...[ConditionalWrites, SecretSealing, ScopeService, IdempotencyService, ConnectorEnvironments],
      { provide: Database, useValue: db },
      { provide: RestConnectorRepository, useValue: connectors },
      { provide: ConnectorHistoryRepository, useValue: history },
      { provide: ConnectorEventOutbox, useValue: outbox },
      { provide: ScopeRepository, useValue: scopes },
      { provide: SecretCipher, useValue: cipher },
      { provide: IdempotencyRepository, useValue: keys },
      { provide: ConnectorVariableRepository, useValue: variables },
    ],
  }).compile();
  return { sut: module.get(sut), connectors, history, outbox, scopes, db, cipher, keys, variables };
}

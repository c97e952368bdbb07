// The public surface of libs/domain: the data model (entities, enums), the DTOs the API speaks, the repositories
// that read and write them, and the database they live in. Nothing here knows about HTTP servers, config or logs.

// Database: connection options, migrations (run through the options), error codes, ids
export * from './database/database-config';
export * from './database/data-source-options';
export * from './database/platform-data-source';
export * from './database/database-errors';
export * from './database/database';
export * from './database/open-database';
export { rowsWrite } from './database/row-writes';
export * from './database/server-pool';
export * from './database/server-transaction';
export * from './database/replicas/gtid-position';
export * from './database/replicas/read-consistency';
export * from './database/replicas/read-replicas';
export * from './database/replicas/create-read-replicas';
export * from './database/table-rows';
export * from './database/statement';
export * from './database/generate-sql';
export * from './database/uuid-v7';
export * from './domain.module';

// Scope: organization → environment → bot, the path DTOs, what a scoped query found, the errors that name the missing link
export * from './scope/scope-params.dto';
export * from './scope/scope-not-found.exceptions';
export * from './scope/scope.repository';
export * from './scope/scope.service';
export * from './scope/uuid';
export * from './scope/lookup';

// Errors: what a rule refused, by code (the platform maps codes to statuses)
export * from './errors/domain-error';

// Organizations, environments, bots, flows
export * from './organizations/organization.entity';
export * from './environments/environment.entity';
export * from './environments/environment.repository';
export * from './environments/dto/environment.dto';

// Connector variables of environments ({{env.NAME}})
export * from './connector-variables/connector-variable.entity';
export * from './connector-variables/connector-variable.repository';
export * from './connector-variables/env-placeholders';
export * from './connector-variables/dto/connector-variables.dto';
export * from './bots/bot.entity';
export * from './bots/bot.repository';
export * from './bots/dto/bot.dto';
export * from './flows/flow.entity';
export * from './flows/flow-connector.entity';

// Rest connectors: entities, enums, which secret each auth type uses, DTOs, repositories, exceptions
export * from './rest-connectors/rest-connector.entity';
export * from './rest-connectors/rest-connector-tag.entity';
export * from './rest-connectors/connector-content.entity';
export * from './rest-connectors/rest-connector-version.entity';
export * from './rest-connectors/connector-snapshot';
export * from './rest-connectors/connector-version';
export * from './rest-connectors/rest-connector.enums';
export * from './rest-connectors/media-types';
export * from './rest-connectors/demo-echo-target';
export * from './rest-connectors/connector-secrets';
export * from './rest-connectors/connector-fields';
export * from './rest-connectors/multipart-parts';
export * from './rest-connectors/stored-connector';
export * from './rest-connectors/dto/rest-connector-write.dto';
export * from './rest-connectors/dto/rest-connector-write.examples';
export * from './rest-connectors/dto/rest-connector-test.dto';
export * from './rest-connectors/dto/rest-connector-import.dto';
export * from './rest-connectors/dto/rest-connector-test.examples';
export * from './rest-connectors/dto/rest-connector.dto';
export * from './rest-connectors/dto/rest-connector-list.dto';
export * from './rest-connectors/dto/rest-connector-page.dto';
export * from './rest-connectors/dto/rest-connector-history.dto';
export * from './rest-connectors/dto/pagination-query.dto';
export * from './rest-connectors/dto/quicksearch-query.dto';
export * from './rest-connectors/rest-connector.repository';
export * from './rest-connectors/rest-connector-search.repository';
export * from './rest-connectors/connector-relations.repository';
export * from './rest-connectors/connector-read-copy';
export * from './rest-connectors/connector-history.repository';

// Connector test runs: the record of each run attempted, its DTOs and its repository
export * from './rest-connectors/test-runs/connector-test-run.entity';
export * from './rest-connectors/test-runs/connector-test-run.repository';
export * from './rest-connectors/test-runs/dto/connector-test-run.dto';

// Idempotency keys: the stored responses of keyed writes
export * from './idempotency/idempotency-key.entity';
export * from './idempotency/idempotency.repository';
export * from './idempotency/idempotency.service';
export * from './idempotency/fingerprint';

// Secrets at rest: the cipher of connector secrets and its key rotation
export * from './secrets/secret-cipher';
export * from './secrets/rotate-secrets';

// Input rules shared by the DTOs and the edge
export * from './validation/http-url.validator';
export * from './validation/basic-credentials.validator';
export * from './validation/text-rules';
export * from './validation/http-headers';
export { HTTP_TOKEN } from './validation/http-token.validator';
export * from './validation/api-key-name.validator';

// Connector change events: the outbox written with every version, the feed's and the relay's statements
export * from './connector-events/connector-event.entity';
export * from './connector-events/connector-event-relay.entity';
export * from './connector-events/connector-event.repository';
export * from './connector-events/connector-event-outbox';
export * from './connector-events/parked-event.repository';
export * from './connector-events/dto/connector-event-feed.dto';

// Promotions of a bot's connectors from another bot
export * from './promotions/connector-promotion.entity';
export * from './promotions/connector-promotion.repository';
export * from './promotions/dto/connector-promotion.dto';

import { PLATFORM_APPS, PlatformAppDefinition } from '@app/platform';
import { DEMO_PATH_IDS } from '@app/seed-data';
import { IMPORT_BODY_ROUTE } from './rest-connectors/import-export/import-body';
import { TransactionalServiceModule } from './transactional-service.module';

export const TRANSACTIONAL_SERVICE_APP: PlatformAppDefinition = {
  ...PLATFORM_APPS.transactionalService,
  module: TransactionalServiceModule,
  title: 'Bot Platform Management API: rest connectors',
  description:
    'Rest connectors of a bot. A rest connector is a configured outbound REST call that flows of the bot use.\n\n' +
    "- **Connectors**: list, page through, autocomplete, create, read, update and delete (to the trash) a bot's connectors.\n" +
    "- **Test runs**: make a connector's call now, saved or not yet saved, and see what came back; list who ran which, when, and what came of it.\n" +
    '- **Import and export**: connectors from a cURL command, an OpenAPI document or a Postman collection, and back.\n' +
    "- **History and trash**: every version of a connector, the bot's deleted connectors, and their restore.\n" +
    "- **Connector variables**: each environment's `{{env.NAME}}` values (secret ones sealed and bound to their hosts), versioned.\n" +
    "- **Promotions**: another bot's connectors into this one (from one environment to the next), planned, applied and reverted.\n" +
    '- **Change events**: every write of a connector as a CloudEvent, in a feed any client can follow (and on NATS JetStream).\n\n' +
    'Writes take `If-Match` (the `ETag` of a read) to apply only to the version you read; creates take an ' +
    '`Idempotency-Key` to make retries safe.',
  groups: [
    {
      name: 'Connectors',
      description: "The bot's rest connectors, as a flow editor uses them: find one, then create, read, change or delete it.",
      operations: [
        'listRestConnectors',
        'pageRestConnectors',
        'quicksearchRestConnectors',
        'createRestConnector',
        'getRestConnector',
        'updateRestConnector',
        'deleteRestConnector',
      ],
    },
    {
      name: 'Test runs',
      description:
        "Try a connector's call before a flow uses it: the request as sent (secrets hidden), the answer, and what `output` selects. Every run is recorded (who, when, the host called, the outcome), for readers to list.",
      operations: ['testUnsavedRestConnector', 'testSavedRestConnector', 'restConnectorTestRuns', 'unsavedRestConnectorTestRuns'],
    },
    {
      name: 'Import and export',
      description: 'Bring connectors in from what you already have (a cURL command, an OpenAPI document, a Postman collection) and take one out again.',
      operations: ['importRestConnectors', 'exportRestConnector'],
    },
    {
      name: 'History and trash',
      description:
        'What each write left (versions with the record they wrote, who made them, through which request and why), what changed between two ' +
        'versions, how to put an earlier version back, the connectors deleted from the bot, and how to bring one back.',
      operations: [
        'restConnectorVersions',
        'restConnectorVersion',
        'restConnectorVersionDiff',
        'revertRestConnector',
        'deletedRestConnectors',
        'restoreRestConnector',
      ],
    },
    {
      name: 'Connector variables',
      description:
        "The environment's connector variables: what `{{env.NAME}}` stands for in its connectors (a base URL, a secret key bound to its hosts), " +
        'read and replaced as one set, with its versions.',
      operations: ['getConnectorVariables', 'putConnectorVariables', 'connectorVariablesHistory'],
    },
    {
      name: 'Promotions',
      description:
        "Move a working set of connectors from one stage to the next: plan the promotion of another bot's connectors into this bot (what each " +
        'connector becomes, the variables and secrets the target needs: secrets are never copied), apply that plan with its digest in one ' +
        'transaction, list what was promoted, and revert it.',
      operations: ['promoteRestConnectors', 'restConnectorPromotions', 'restConnectorPromotion', 'revertRestConnectorPromotion'],
    },
    {
      name: 'Change events',
      description:
        "Every create, update, delete and restore of the environment's connectors, and every change of its connector variables, as CloudEvents, in one order: follow the feed with its cursor (the same events go to NATS JetStream).",
      operations: ['connectorEvents'],
    },
  ],
  pathExamples: DEMO_PATH_IDS,
  // The change events on NATS JetStream.
  asyncApiDocument: 'connector-events.yaml',
  // An import's source may be 8 MiB (IMPORT_LIMITS.sourceBytes), which JSON escapes can make larger; it may also be the body itself, or an upload.
  largeBodies: [IMPORT_BODY_ROUTE],
};

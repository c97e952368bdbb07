import { InitialSchema1795305600000 } from './1795305600000-initial-schema';
import { IdempotencyKeys1795392000000 } from './1795392000000-idempotency-keys';
import { BinaryNameKeys1795478400000 } from './1795478400000-binary-name-keys';
import { ConnectorVersions1795564800000 } from './1795564800000-connector-versions';
import { CanonicalConnectorUrls1795651200000 } from './1795651200000-canonical-connector-urls';
import { ConnectorEvents1795737600000 } from './1795737600000-connector-events';
import { ApiKeyAuth1795824000000 } from './1795824000000-api-key-auth';
import { RelayLeaseEpoch1795917600000 } from './1795917600000-relay-lease-epoch';
import { ConnectorTestRuns1796000000000 } from './1796000000000-connector-test-runs';
import { VersionSupportTrail1796100000000 } from './1796100000000-version-support-trail';
import { ParkedEvents1796200000000 } from './1796200000000-parked-events';
import { MultipartBodyParts1796300000000 } from './1796300000000-multipart-body-parts';
import { ConnectorVariables1796400000000 } from './1796400000000-connector-variables';
import { ConnectorPromotions1796500000000 } from './1796500000000-connector-promotions';
import { ConnectorReadCopies1796600000000 } from './1796600000000-connector-read-copies';

/** In order. Listed, not globbed: the apps are bundled by webpack. */
export const MIGRATIONS = [
  InitialSchema1795305600000,
  IdempotencyKeys1795392000000,
  BinaryNameKeys1795478400000,
  ConnectorVersions1795564800000,
  CanonicalConnectorUrls1795651200000,
  ConnectorEvents1795737600000,
  ApiKeyAuth1795824000000,
  RelayLeaseEpoch1795917600000,
  ConnectorTestRuns1796000000000,
  VersionSupportTrail1796100000000,
  ParkedEvents1796200000000,
  MultipartBodyParts1796300000000,
  ConnectorVariables1796400000000,
  ConnectorPromotions1796500000000,
  ConnectorReadCopies1796600000000,
];

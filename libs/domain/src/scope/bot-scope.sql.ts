import { BotPath, EnvironmentPath } from './scope-params.dto';

/**
 * The scope check folded into a data query, so a hot read is one round trip: the query joins `bots b`
 * and `environments e` and adds these conditions. When such a query finds nothing, ScopeService tells
 * which link of the path is missing (and the 404 names it); the extra query runs only then.
 */
export const BOT_IN_SCOPE = 'b.uuid = ? AND b.environment_uuid = ? AND e.organization_uuid = ?';
export const botInScope = (path: BotPath): string[] => [path.botUUID, path.envUUID, path.orgUUID];

/** The same for an environment, joined as `environments e`. */
export const ENVIRONMENT_IN_SCOPE = 'e.uuid = ? AND e.organization_uuid = ?';
export const environmentInScope = (path: EnvironmentPath): string[] => [path.envUUID, path.orgUUID];

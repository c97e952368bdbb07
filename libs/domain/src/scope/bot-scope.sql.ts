/**
 * The scope check folded into a data query, so a hot read is one round trip: the query joins `bots b`
 * and `environments e` and adds these conditions, bound from the path (BotPath: `botUUID`, `envUUID`, `orgUUID`).
 * When such a query finds nothing, ScopeService tells which link of the path is missing (and the 404 names it); the
 * extra query runs only then.
 */
export const BOT_IN_SCOPE = 'b.uuid = :botUUID AND b.environment_uuid = :envUUID AND e.organization_uuid = :orgUUID';

/** The same for an environment, joined as `environments e` (EnvironmentPath: `envUUID`, `orgUUID`). */
export const ENVIRONMENT_IN_SCOPE = 'e.uuid = :envUUID AND e.organization_uuid = :orgUUID';

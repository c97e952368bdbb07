/** Who is calling, as the verified token says (docs/api-contract.md, "Authentication and tenancy"). */
export interface Caller {
  sub: string;
  /** `username`, else `preferred_username`, else `sub`: what `updatedBy` records. */
  username: string;
  /** `picture`: the `user.image` of page items. */
  picture: string | null;
  /** Organization uuids (lower case) the caller may use; `*` for all. */
  orgs: string[];
  scopes: string[];
}

export const ALL_ORGANIZATIONS = '*';
export const CONNECTORS_WRITE_SCOPE = 'connectors:write';

export function mayUseOrganization(caller: Caller, orgUuid: string): boolean {
  return caller.orgs.includes(ALL_ORGANIZATIONS) || caller.orgs.includes(orgUuid.toLowerCase());
}

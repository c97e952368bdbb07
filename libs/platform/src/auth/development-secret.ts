import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { readOrCreateDevelopmentFile } from '../secrets/development-file';
import { ALL_ORGANIZATIONS, CONNECTORS_WRITE_SCOPE } from './caller';

/**
 * Outside production with no auth configured, tokens are signed with a secret kept beside the
 * embedded database, created on first use. Never used when NODE_ENV=production (config refuses).
 */
export function readOrCreateDevelopmentSecret(file: string): string {
  return readOrCreateDevelopmentFile(file, () => randomBytes(32).toString('base64url'));
}

/** What a development token says of its caller: the claims JwtVerifier reads (docs/api-contract.md, "Authentication"). */
export interface DevelopmentTokenClaims {
  /** `sub`, the caller's id. */
  sub: string;
  /** `username`: what `updatedBy` records. */
  username: string;
  /** `orgs`: organization uuids, or `*` for every organization. */
  orgs: string[];
  /** `scope`: space-separated; `connectors:write` for the connector writes, empty for a read-only token. */
  scope: string;
}

/** The demo user of `npm start`'s banner: every organization, write scope. */
export const DEMO_USER_CLAIMS: Readonly<DevelopmentTokenClaims> = Object.freeze({
  sub: 'demo-user',
  username: 'demo',
  orgs: [ALL_ORGANIZATIONS],
  scope: CONNECTORS_WRITE_SCOPE,
});

/** A token valid for 30 days, the demo user's unless `claims` says otherwise. */
export function signDevelopmentToken(secret: string, claims: Readonly<DevelopmentTokenClaims> = DEMO_USER_CLAIMS): Promise<string> {
  return new SignJWT({
    username: claims.username,
    orgs: claims.orgs,
    scope: claims.scope,
    picture: 'https://www.gravatar.com/avatar/?d=identicon',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime('30d')
    .sign(new TextEncoder().encode(secret));
}

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

/** A token for the demo user: every organization, write scope, valid for 30 days. */
export function signDevelopmentToken(secret: string): Promise<string> {
  return new SignJWT({
    username: 'demo',
    orgs: [ALL_ORGANIZATIONS],
    scope: CONNECTORS_WRITE_SCOPE,
    picture: 'https://www.gravatar.com/avatar/?d=identicon',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('demo-user')
    .setIssuedAt()
    .setExpirationTime('30d')
    .sign(new TextEncoder().encode(secret));
}

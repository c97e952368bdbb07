import { SignJWT } from 'jose';
import { TEST_JWT_SECRET } from './test-config';

export interface TokenClaims {
  sub?: string;
  username?: string;
  preferred_username?: string;
  picture?: string;
  orgs?: string[];
  scope?: string;
  [claim: string]: unknown;
}

/** An HS256 token signed with the suite's secret; expires in an hour unless `expiresAt` says otherwise. */
export function signToken(claims: TokenClaims = {}, options: { expiresAt?: number | string; secret?: string } = {}) {
  const { sub = 'user-1', ...rest } = claims;
  return new SignJWT({ orgs: ['*'], ...rest })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(options.expiresAt ?? '1h')
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

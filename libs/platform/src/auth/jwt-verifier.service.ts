import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createRemoteJWKSet, errors, JWTPayload, jwtVerify, JWTVerifyGetKey } from 'jose';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { Caller } from './caller';
import { readOrCreateDevelopmentSecret } from './development-secret';
import { InvalidTokenException } from './invalid-token.exception';

const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/**
 * How far a token's `iat` or `nbf` may lie ahead of this server's clock: the identity provider's clock may
 * run ahead of ours. Further ahead is a 401 (a token minted for later use, or a broken issuer clock).
 * `exp` gets no such allowance: a token is never honoured past it.
 */
export const CLOCK_SKEW_SECONDS = 60;
/** Verified tokens remembered (until their `exp`), oldest forgotten first. */
export const VERIFIED_TOKEN_CACHE_SIZE = 5_000;

/** Verifies bearer tokens and turns their claims into a Caller. `alg: none` is never accepted. */
@Injectable()
export class JwtVerifier implements OnModuleInit {
  private key: Uint8Array | JWTVerifyGetKey;
  private algorithms: string[];
  /**
   * A caller sends the same token with every request: its signature is checked once, and the result
   * kept until the token's `exp` (never longer), so verification is not paid per request.
   */
  private readonly verified = new Map<string, { caller: Readonly<Caller>; expiresAt: number }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onModuleInit(): void {
    const auth = this.config.auth;
    if (auth.mode === 'jwks') {
      this.key = createRemoteJWKSet(new URL(auth.jwksUrl), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
      this.algorithms = ASYMMETRIC_ALGORITHMS;
      return;
    }
    const secret = auth.mode === 'secret' ? auth.secret : readOrCreateDevelopmentSecret(auth.secretFile);
    this.key = new TextEncoder().encode(secret);
    this.algorithms = ['HS256'];
  }

  async verify(token: string): Promise<Caller> {
    const known = this.verified.get(token);
    if (known && known.expiresAt > Date.now()) return known.caller;
    if (known) this.verified.delete(token);
    const auth = this.config.auth;
    let payload: JWTPayload;
    try {
      const options = {
        algorithms: this.algorithms,
        issuer: auth.mode === 'development' ? undefined : auth.issuer,
        audience: auth.mode === 'development' ? undefined : auth.audience,
        requiredClaims: ['exp'],
        // jose applies the tolerance to `nbf` (and to `exp`, which checkTimes then holds to the second).
        clockTolerance: CLOCK_SKEW_SECONDS,
      };
      ({ payload } = typeof this.key === 'function' ? await jwtVerify(token, this.key, options) : await jwtVerify(token, this.key, options));
    } catch (error) {
      throw new InvalidTokenException(describeJoseError(error));
    }
    checkTimes(payload);
    const caller = Object.freeze(toCaller(payload));
    if (this.verified.size >= VERIFIED_TOKEN_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { caller, expiresAt: payload.exp! * 1000 });
    return caller;
  }
}

/**
 * What jose leaves to us: it checks `iat` only with a maximum token age (not wanted here), and its
 * tolerance would keep a token valid for CLOCK_SKEW_SECONDS past its `exp`.
 */
function checkTimes(payload: JWTPayload): void {
  const now = Date.now() / 1000;
  if (payload.exp! <= now) throw new InvalidTokenException('The token has expired');
  if (payload.iat !== undefined && payload.iat > now + CLOCK_SKEW_SECONDS) {
    throw new InvalidTokenException("The token's iat claim is not accepted");
  }
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `The token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The token is signed with an algorithm that is not accepted';
  if (error instanceof errors.JWKSNoMatchingKey) return 'The token is signed with an unknown key';
  return 'The token is invalid';
}

/** What the platform stores of a caller (`updatedBy`, `user.image`, idempotency keys) has these sizes. */
export const CLAIM_LIMITS = { sub: 255, username: 255, picture: 2048 } as const;

function toCaller(payload: JWTPayload): Caller {
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub.trim() === '') throw new InvalidTokenException('The token has no sub claim');
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  const username = text(payload.username) ?? text(payload.preferred_username) ?? sub;
  const picture = text(payload.picture) ?? null;
  for (const [claim, value] of [
    ['sub', sub],
    ['username', username],
    ['picture', picture],
  ] as const) {
    if (value !== null && value.length > CLAIM_LIMITS[claim]) {
      throw new InvalidTokenException(`The token's ${claim} claim is longer than ${CLAIM_LIMITS[claim]} characters`);
    }
  }
  const orgs = Array.isArray(payload.orgs) ? payload.orgs.filter((org): org is string => typeof org === 'string') : [];
  const scope = typeof payload.scope === 'string' ? payload.scope : '';
  return {
    sub,
    username,
    picture,
    orgs: orgs.map((org) => org.toLowerCase()),
    scopes: scope.split(' ').filter((s) => s.length > 0),
  };
}

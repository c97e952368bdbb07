import { InvalidTokenException } from './invalid-token.exception';

/**
 * Longer tokens are refused unverified. One header line of the ingress cannot hold more (nginx's
 * large_client_header_buffers: 8 KiB), and the platform's own claims stay far below it.
 */
export const MAX_TOKEN_LENGTH = 8_192;
/** A JWS in compact form: three base64url segments (the signature is empty for `alg: none`, which jose refuses by name). */
const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * The token of `Authorization: Bearer <token>`, or the 401 JwtAuthGuard answers. A token not even shaped
 * like a JWT gets the answer jose's verification would give it, without the verification.
 */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new InvalidTokenException('Authorization: Bearer <token> is required', 'Bearer');
  // Swagger UI's Authorize dialog adds "Bearer " itself: a token pasted with it arrives twice prefixed.
  if (/^Bearer\s+Bearer\s/i.test(header)) {
    throw new InvalidTokenException(
      'The Authorization header says "Bearer" twice: paste the token alone (Swagger UI\'s Authorize adds "Bearer " for you)',
      'Bearer',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new InvalidTokenException('The Authorization header must be "Bearer <token>"', 'Bearer');
  const token = match[1];
  if (token.length > MAX_TOKEN_LENGTH || !JWS_SHAPE.test(token)) throw new InvalidTokenException('The token is invalid');
  return token;
}

import { UnauthorizedException } from '@nestjs/common';

/** 401 with the RFC 6750 challenge; the filter copies `challenge` into WWW-Authenticate. */
export class InvalidTokenException extends UnauthorizedException {
  constructor(
    message: string,
    readonly challenge = 'Bearer error="invalid_token"',
  ) {
    super(message);
  }
}

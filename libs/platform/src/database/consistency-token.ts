import { BadRequestException } from '@nestjs/common';
import { GtidPosition } from '@app/domain';

/**
 * Every write answer carries where it committed; a read that sends it back sees that write, whoever sends it
 * (docs/api-contract.md, "Consistency tokens").
 */
export const CONSISTENCY_TOKEN_HEADER = 'Consistency-Token';

const EXAMPLE = '0-1-4711';

/** The position a Consistency-Token request header asks for; a 400 that says what is expected otherwise. */
export function parseConsistencyToken(value: string | string[]): GtidPosition {
  const text = Array.isArray(value) ? value.join(',') : value;
  const position = text.length <= 512 ? GtidPosition.parse(text) : undefined;
  if (position === undefined || position.isEmpty) {
    throw new BadRequestException(
      `${CONSISTENCY_TOKEN_HEADER} must be the value of a ${CONSISTENCY_TOKEN_HEADER} header a write of this API answered (such as ${EXAMPLE}), sent once; or leave the header out`,
    );
  }
  return position;
}

export const CONSISTENCY_TOKEN_EXAMPLE = EXAMPLE;

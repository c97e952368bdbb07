import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import { UUID_PATTERN } from './uuid';

/** A path id: a UUID in any case, handed on in lower case, 400 naming the parameter otherwise. */
export const PathUuid = (description: string) =>
  applyDecorators(
    ApiProperty({ description, format: 'uuid', maxLength: 36, example: '3fa85f64-5717-4562-b3fc-2c963f66afa6' }),
    Matches(UUID_PATTERN, { message: '$property must be a UUID' }),
    Transform(({ value }) => (typeof value === 'string' && UUID_PATTERN.test(value) ? value.toLowerCase() : value)),
  );

// Flat classes, not a hierarchy: validation reports the ids in path order.
export class OrganizationPath {
  @PathUuid('uuid of an organization')
  orgUUID: string;
}

export class EnvironmentPath {
  @PathUuid('uuid of an organization')
  orgUUID: string;

  @PathUuid('uuid of an environment')
  envUUID: string;
}

export class BotPath {
  @PathUuid('uuid of an organization')
  orgUUID: string;

  @PathUuid('uuid of an environment')
  envUUID: string;

  @PathUuid('uuid of a bot')
  botUUID: string;
}

export class RestConnectorPath {
  @PathUuid('uuid of an organization')
  orgUUID: string;

  @PathUuid('uuid of an environment')
  envUUID: string;

  @PathUuid('uuid of a bot')
  botUUID: string;

  @PathUuid('uuid of a rest connector')
  serviceUUID: string;
}

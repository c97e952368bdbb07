import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, ValidateNested } from 'class-validator';

/**
 * An array of at most `max` objects, each validated by the rules of `type`. Every item must itself be an
 * object: ValidateNested alone walks into an inner array and validates what it holds, so `[[{…}], []]`
 * would pass as two items, escape the size limit and reach the service in a shape it never expects.
 */
export const ArrayOf = (type: () => Function, max: number) =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(max),
    IsObject({ each: true, message: '$property must be an array of objects' }),
    ValidateNested({ each: true }),
    Type(type),
  );

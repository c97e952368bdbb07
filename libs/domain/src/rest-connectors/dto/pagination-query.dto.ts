import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { SingleLine } from '../../validation/single-line.validator';

export const ORDER_BY_FIELDS = ['name', 'updatedAt', 'updatedBy'] as const;
export type OrderByField = (typeof ORDER_BY_FIELDS)[number];
export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * The case rule of the API (docs/api-contract.md, "Case"): a query parameter's value from a fixed list is taken in
 * any case (Spring clients send `direction=asc`) and becomes the listed spelling; a body's enum values are exact,
 * as the record they write shows them.
 */
const inAnyCase = (values: readonly string[]) =>
  Transform(({ value }) => (typeof value === 'string' ? (values.find((listed) => listed.toLowerCase() === value.toLowerCase()) ?? value) : value));

export const INT32_MAX = 2_147_483_647;
export const MAX_SEARCH_TERMS = 10;
export const MAX_SEARCH_TERM_LENGTH = 100;

/** Query strings are text: whole numbers become numbers, anything else stays text and fails IsInt. */
export const toInteger = Transform(({ value }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value));

/** `?searchTerms=a&searchTerms=b` and `?searchTerms=a,b` alike; blank terms dropped. */
const toSearchTerms = Transform(({ value }) => {
  const values = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return value;
  return values
    .flatMap((v: string) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
});

/** `page`, 1-based, of every paged operation. */
export const PageNumber = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX, default: 1, description: 'Page number, 1-based.' }),
    toInteger,
    Min(1),
    Max(INT32_MAX),
    IsInt(),
  );

export class PaginationQueryDto {
  @PageNumber()
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 5, description: 'Connectors per page.' })
  @toInteger
  @Min(1)
  @Max(100)
  @IsInt()
  linesPerPage: number = 5;

  @ApiPropertyOptional({
    enum: ORDER_BY_FIELDS,
    default: 'updatedAt',
    description: 'Sort field; ties are broken by uuid. Taken in any case (`UPDATEDAT` is `updatedAt`).',
  })
  @inAnyCase(ORDER_BY_FIELDS)
  @IsIn(ORDER_BY_FIELDS)
  orderBy: OrderByField = 'updatedAt';

  // An enum, so that Swagger UI offers a choice; the server takes it in any case too (`asc`, `Desc`).
  @ApiPropertyOptional({ enum: DIRECTIONS, default: 'DESC', description: 'Sort direction. Taken in any case (`asc` is `ASC`), as Spring Data takes it.' })
  @inAnyCase(DIRECTIONS)
  @IsIn(DIRECTIONS)
  direction: Direction = 'DESC';

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: MAX_SEARCH_TERM_LENGTH },
    maxItems: MAX_SEARCH_TERMS,
    description:
      'Names or tags to filter by. Repeat the parameter (`searchTerms=a&searchTerms=b`) or separate terms by commas ' +
      '(`searchTerms=a,b`). Every term must match: a term matches a connector whose name or one of whose tags ' +
      'contains it, case-insensitively; `%`, `_` and `\\` are literal.',
  })
  @toSearchTerms
  @IsArray()
  @ArrayMaxSize(MAX_SEARCH_TERMS)
  @IsString({ each: true })
  @MaxLength(MAX_SEARCH_TERM_LENGTH, { each: true })
  @SingleLine({ each: true })
  searchTerms: string[] = [];
}

import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { SingleLine } from '../../validation/single-line.validator';

export const ORDER_BY_FIELDS = ['name', 'updatedAt', 'updatedBy'] as const;
export type OrderByField = (typeof ORDER_BY_FIELDS)[number];
export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** A pattern that admits each value (letters only) in any case and nothing else: JSON Schema has no case-insensitive flag. */
const anyCasePattern = (values: readonly string[]) =>
  `^(${values.map((value) => [...value].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('')).join('|')})$`;

/**
 * A query parameter whose value comes from a fixed list, by the case rule of the API (docs/api-contract.md,
 * "Case"): taken in any case (Spring clients send `direction=asc`) and handed on as the listed spelling; anything
 * else is a 400. The document says exactly that: a pattern admitting every case of each value, not an `enum` (which
 * would tell generated clients and validators that `asc` is refused). A body's enum values are exact, as the record
 * they write shows them.
 */
const OneOfInAnyCase = (values: readonly string[], options: { default: string; description: string }) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      pattern: anyCasePattern(values),
      maxLength: Math.max(...values.map((value) => value.length)),
      default: options.default,
      example: options.default,
      description: `${options.description} One of ${values.map((v) => `\`${v}\``).join(', ')}, in any case.`,
    }),
    Transform(({ value }) => (typeof value === 'string' ? (values.find((listed) => listed.toLowerCase() === value.toLowerCase()) ?? value) : value)),
    IsIn(values),
  );

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

  @OneOfInAnyCase(ORDER_BY_FIELDS, { default: 'updatedAt', description: 'Sort field; ties are broken by uuid (`UPDATEDAT` is `updatedAt`).' })
  orderBy: OrderByField = 'updatedAt';

  @OneOfInAnyCase(DIRECTIONS, { default: 'DESC', description: 'Sort direction (`asc` is `ASC`, as Spring Data takes it).' })
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

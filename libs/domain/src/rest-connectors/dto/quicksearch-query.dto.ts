import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, IsString, Length, Max, Min } from 'class-validator';
import { SingleLine } from '../../validation/single-line.validator';
import { MAX_SEARCH_TERM_LENGTH, toInteger } from './pagination-query.dto';

export class QuicksearchQueryDto {
  @ApiProperty({ description: 'Word or part of a word.', example: 'wea', minLength: 1, maxLength: MAX_SEARCH_TERM_LENGTH })
  @IsDefined()
  @IsString()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @Length(1, MAX_SEARCH_TERM_LENGTH, { message: `searchTerm must be a non-blank string of at most ${MAX_SEARCH_TERM_LENGTH} characters` })
  @SingleLine()
  searchTerm: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1, maximum: 50, default: 6, description: 'Maximum number of suggestions.' })
  @toInteger
  @Min(1)
  @Max(50)
  @IsInt()
  limit: number = 6;
}

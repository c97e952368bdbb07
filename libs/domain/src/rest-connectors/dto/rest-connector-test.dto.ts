import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, registerDecorator, ValidateNested } from 'class-validator';
import { VARIABLE_NAME_SOURCE } from '../../validation/http-url.validator';
import { TestRunOutcome } from '../rest-connector.enums';
import { RestConnectorWriteDto } from './rest-connector-write.dto';

export const VARIABLE_LIMITS = { count: 50, valueBytes: 8 * 1024 } as const;
/** A variable's name, as `{{name}}` stands for it in a connector. */
export const VARIABLE_NAME = new RegExp(`^${VARIABLE_NAME_SOURCE}$`);

/** Why a `variables` object is refused, or null when it is acceptable. */
export function variablesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of string values';
  const entries = Object.entries(value);
  if (entries.length > VARIABLE_LIMITS.count) return `must hold at most ${VARIABLE_LIMITS.count} variables`;
  const problems: string[] = [];
  for (const [name, text] of entries) {
    const shown = JSON.stringify(name.slice(0, 70));
    if (!VARIABLE_NAME.test(name)) problems.push(`name ${shown} must match ${VARIABLE_NAME.source}`);
    else if (typeof text !== 'string') problems.push(`${name} must be a string`);
    else if (Buffer.byteLength(text, 'utf8') > VARIABLE_LIMITS.valueBytes) problems.push(`${name} must be at most ${VARIABLE_LIMITS.valueBytes} bytes (UTF-8)`);
  }
  return problems.length === 0 ? null : problems.join('; ');
}

/**
 * `variables` of a test run: at most 50 string values, named as placeholders are, each at most 8 KiB; taken as sent
 * (class-transformer, copying a plain object, skips the keys named as a method of Object.prototype: toString, valueOf…).
 */
function IsVariables(): PropertyDecorator {
  return (target, propertyName) => {
    Transform(({ obj }) => (obj as Record<string | symbol, unknown>)[propertyName], { toClassOnly: true })(target, propertyName);
    registerDecorator({
      name: 'isVariables',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => variablesProblem(value) === null,
        defaultMessage: (args) => `${args?.property} ${variablesProblem(args?.value)}`,
      },
    });
  };
}

const VARIABLES_PROPERTY = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: VARIABLE_LIMITS.valueBytes },
  maxProperties: VARIABLE_LIMITS.count,
  example: { city: 'Lisbon' },
  description:
    `What each \`{{name}}\` of the connector's url (percent-encoded there), header values and body (JSON-escaped inside ` +
    'the strings of an APPLICATION_JSON body, form-encoded in an APPLICATION_FORM_URLENCODED one) stands for. ' +
    // Not in backquotes: @nestjs/swagger embeds the document in swagger-ui-init.js with String.replace, which reads
    // a dollar sign followed by a backquote as a replacement pattern and breaks the script.
    `At most ${VARIABLE_LIMITS.count} string values; names match /${VARIABLE_NAME.source}/; values at most 8 KiB (UTF-8). ` +
    'A placeholder without a variable is a 400 naming every missing one. Names starting with env. are refused (400): each ' +
    '`{{env.NAME}}` is the connector variable NAME of the environment in the path (set with PUT …/connector-variables), filled as ' +
    'written in URLs and as these are elsewhere; a secret one is sent only to its destinations and shown as <SECRET:env.NAME>.',
} as const;

/** Body of `POST …/rest-connectors/test`: an unsaved connector, validated exactly as a create. */
export class RestConnectorTestDto {
  @ApiProperty({ type: RestConnectorWriteDto, description: 'The connector to test, as a create would take it; nothing is stored.' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RestConnectorWriteDto)
  connector: RestConnectorWriteDto;

  @ApiPropertyOptional(VARIABLES_PROPERTY)
  @IsOptional()
  @IsVariables()
  variables?: Record<string, string>;
}

/** Body of `POST …/rest-connectors/{serviceUUID}/test`: the stored connector, or edits of it that are not saved. */
export class SavedRestConnectorTestDto {
  @ApiPropertyOptional(VARIABLES_PROPERTY)
  @IsOptional()
  @IsVariables()
  variables?: Record<string, string>;

  @ApiPropertyOptional({
    type: RestConnectorWriteDto,
    description:
      'Edits to test instead of the stored connector, as a PUT would store them (placeholders keep the stored secrets while the URL keeps its host); nothing is saved.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RestConnectorWriteDto)
  connector?: RestConnectorWriteDto;
}

export class TestRunHeaderDto {
  @ApiProperty({ example: 'content-type' })
  header: string;

  @ApiProperty({ example: 'application/json' })
  value: string;
}

export class TestRunPartDto {
  @ApiProperty({ example: 'attachment' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'report.pdf', description: 'Null for a text field; `blob` for a file part written without one.' })
  filename: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'application/pdf', description: "The part's Content-Type as sent; null for a text field." })
  contentType: string | null;

  @ApiProperty({ example: 5120, description: "The part's content in bytes as sent." })
  sizeBytes: number;

  @ApiPropertyOptional({
    example: 'Hello',
    description: 'A `value` part as sent, variables filled in (line breaks as CRLF on the wire); absent for a `base64` part, whose bytes are not shown.',
  })
  value?: string;
}

export class TestRunRequestDto {
  @ApiProperty({ example: 'GET' })
  method: string;

  @ApiProperty({ example: 'https://api.example.com/items/42', description: 'With the variables filled in.' })
  url: string;

  @ApiProperty({ type: [TestRunHeaderDto], description: 'As sent; secrets and the access token as their placeholders.' })
  headers: TestRunHeaderDto[];

  @ApiProperty({ example: '', description: 'As sent (empty when no body was sent), at most 64 KiB of it; secrets as their placeholders.' })
  body: string;

  @ApiProperty({ example: false, description: 'True when the body sent was longer than what `body` holds.' })
  bodyTruncated: boolean;

  @ApiPropertyOptional({
    type: [TestRunPartDto],
    description: "Only for a MULTIPART_FORM_DATA body: the parts sent, in order (`body` is then empty: a file's bytes are not shown).",
  })
  parts?: TestRunPartDto[];
}

export class TestRunResponseDto {
  @ApiProperty({ example: 200 })
  status: number;

  @ApiProperty({ type: [TestRunHeaderDto], description: 'As the far side sent them; every secret and the access token replaced by their placeholders.' })
  headers: TestRunHeaderDto[];

  @ApiProperty({ example: '{"data": {"level": 7}}', description: 'The answer as text, at most 64 KiB; secrets replaced by their placeholders.' })
  body: string;

  @ApiProperty({ example: false, description: 'True when the answer was longer than what `body` holds.' })
  bodyTruncated: boolean;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 22,
    description: "The size of the answer's body in bytes as received; when it was cut at 1 MiB, the Content-Length the far side declared (null without one).",
  })
  sizeBytes: number | null;

  @ApiPropertyOptional({
    description:
      'The body parsed, when the answer says it is JSON (`application/json` or `…+json`), came whole within 64 KiB and parses; absent otherwise. Secrets replaced by their placeholders.',
    example: { data: { level: 7 } },
  })
  json?: unknown;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    example: ['$.data', '$.data.level'],
    description:
      "With `json`: the JSONPath of each of its values, in document order (at most 100), each one a query that selects that value: pick the connector's `output` from them.",
  })
  jsonPaths?: string[];

  @ApiPropertyOptional({ example: false, description: 'With `json`: true when it has more values than `jsonPaths` lists.' })
  jsonPathsTruncated?: boolean;
}

export class TestRunOutputDto {
  @ApiProperty({ example: '$.data.level', description: "The connector's `output`." })
  expression: string;

  @ApiProperty({
    type: 'array',
    items: {},
    nullable: true,
    example: [7],
    description:
      'What the RFC 9535 JSONPath query selects, in document order (empty when nothing), at most 1,000 values and 64 KiB of them as JSON; ' +
      'null when it could not be evaluated.',
  })
  values: unknown[] | null;

  @ApiProperty({ example: false, description: 'True when the query selects more values than `values` holds (the first ones are shown).' })
  valuesTruncated: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      "Why the query could not be evaluated: not a query, the answer not JSON or nested deeper than 64 levels, the query too large, or the answer's reading stopped (longer than 500 ms, or more memory than a run may use).",
  })
  error: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'When the query selects nothing: how far it got, e.g. `output selects nothing: $.data selects an object with the members "level", "unit", and .levl selects nothing from it`.',
  })
  hint: string | null;
}

/** The answer of a test run (200 whenever the call was attempted, whatever the far side answered). */
export class TestRunAnswerDto {
  @ApiProperty({ enum: TestRunOutcome, enumName: 'TestRunOutcome', example: TestRunOutcome.SUCCESS })
  outcome: TestRunOutcome;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'What happened, in words, for every outcome but SUCCESS.' })
  message: string | null;

  @ApiProperty({
    example: 184,
    description: 'From the start of the run to its answer, in milliseconds: the token request and the reading of the answer included.',
  })
  durationMs: number;

  @ApiProperty({
    type: TestRunRequestDto,
    description:
      'The request as it was sent, secrets as placeholders. When the run failed at the OAuth 2.0 token request (AUTH_FAILED, or BLOCKED_DESTINATION or TIMEOUT of the token endpoint), that token request.',
  })
  request: TestRunRequestDto;

  @ApiProperty({
    type: TestRunResponseDto,
    nullable: true,
    description:
      "What came back to `request`: the far side's answer, or the token endpoint's when the run failed at the token request. Null when no answer came.",
  })
  response: TestRunResponseDto | null;

  @ApiProperty({
    type: TestRunOutputDto,
    nullable: true,
    description:
      "The connector's `output` applied to the answer; null when no answer came, when the connector's `output` is empty or blank (the answer is shown whole), or when the run failed at the token request.",
  })
  output: TestRunOutputDto | null;

  @ApiProperty({
    type: [String],
    example: ['variables.lang is not used: the connector has no {{lang}}'],
    description:
      'What the run did differently from what the connector or the variables say: a variable that stands nowhere, a connector header replaced by `authType` or `contentType`, ' +
      "an answer whose headers and body are not shown because they could not be read within the run's bounds.",
  })
  warnings: string[];
}

import { ApiProperty } from '@nestjs/swagger';
import { SpringPageDto } from '../../dto/rest-connector-page.dto';
import { RecordedTestRunOutcome } from '../connector-test-run.entity';

/** One recorded test run: who, when, where to, what came of it. Never a secret, a header, a URL path or query, or a body. */
export class ConnectorTestRunDto {
  @ApiProperty({ format: 'date-time', description: 'When the run started (its call, after the checks that may refuse it).' })
  startedAt: string;

  @ApiProperty({ example: 'auth0|5f7c8ec7c33c6c004bbafe82', description: "The `sub` of the token that ran it, as the access log's `sub`." })
  sub: string;

  @ApiProperty({ example: 'alice', description: 'Who ran it, as `updatedBy` names a writer: `username`, else `preferred_username`, else `sub`.' })
  username: string;

  @ApiProperty({
    example: '6f1c2b1e-9a53-4f5e-8d43-2f8f6f0b4a10',
    description: "The run's request id: its `X-Request-Id` answer and its access log line's `requestId`.",
  })
  requestId: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The saved connector run (also when edits of it were tested); null for an unsaved connector.',
  })
  connectorUuid: string | null;

  @ApiProperty({
    example: 'api.example.com:8443',
    maxLength: 255,
    description: "Host and port (when not the scheme's default) of the connector's URL as called; never its user info, path or query.",
  })
  destinationHost: string;

  @ApiProperty({
    enum: RecordedTestRunOutcome,
    enumName: 'RecordedTestRunOutcome',
    example: RecordedTestRunOutcome.SUCCESS,
    description: "The run's `outcome`, or CANCELLED when its caller disconnected before it ended.",
  })
  outcome: RecordedTestRunOutcome;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    nullable: true,
    example: 200,
    description: "The status of the answer the run got (the token endpoint's when it failed at the token request); null when none came.",
  })
  status: number | null;

  @ApiProperty({ type: 'integer', format: 'int32', example: 184, description: "The run's `durationMs`." })
  durationMs: number;
}

export class ConnectorTestRunPageDto extends SpringPageDto {
  @ApiProperty({ type: [ConnectorTestRunDto], description: 'Newest first' })
  content: ConnectorTestRunDto[];
}

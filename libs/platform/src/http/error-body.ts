import { ApiProperty } from '@nestjs/swagger';

/** The body of every error the platform sends (docs/api-contract.md, "Errors"). */
export class ErrorBody {
  @ApiProperty({ example: 404 })
  statusCode: number;

  @ApiProperty({ example: 'Not Found', description: 'The HTTP reason phrase of the status.' })
  error: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: 'Bot 0b0c4d3e-4b8f-4c8e-9d51-1a7a4ab1f2c3 not found in environment 5f0e…',
    description: 'What went wrong; for validation errors, one entry per failing field.',
  })
  message: string | string[];

  // No example here: the schema is shared by the three apps; each response's example shows its own path.
  @ApiProperty({ description: 'The path of the request, as sent.' })
  path: string;

  @ApiProperty({ example: '2026-11-21T09:00:00.000Z', format: 'date-time' })
  timestamp: string;

  @ApiProperty({ example: '6f1c2b1e-9a53-4f5e-8d43-2f8f6f0b4a10', description: 'Echo of X-Request-Id.' })
  requestId: string;
}

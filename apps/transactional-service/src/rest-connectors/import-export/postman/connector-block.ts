import { ConnectorTagDto } from '@app/domain';
import { outputFrom, tagsFrom } from '../connector-extras';

/**
 * A Postman request has no field for a connector's output and tags, and Postman keeps only what its schema knows: the
 * export writes them at the end of the request's description (which Postman keeps, and shows as Markdown), as one
 * line of JSON in a fenced block whose info string is `connector`:
 *
 *   Creates an order.
 *
 *   ```connector
 *   {"output":"$.id","tags":["shop"]}
 *   ```
 *
 * The import reads that block back and leaves it out of the description. JSON.stringify writes no line break, so no
 * value can close the block early.
 */
const BLOCK = /(?:^|\n\n)```connector\n(\{.*\})\n```\s*$/;

export interface ConnectorBlock {
  output?: string;
  tags: ConnectorTagDto[];
  tagsLeft: number;
}

/** The description with the block appended (none when the output is empty and there are no tags). */
export function withConnectorBlock(description: string | null, output: string, tags: ConnectorTagDto[]): string | null {
  if (output === '' && tags.length === 0) return description;
  const data = { ...(output !== '' && { output }), ...(tags.length > 0 && { tags: tags.map(({ name }) => name) }) };
  const block = `\`\`\`connector\n${JSON.stringify(data)}\n\`\`\``;
  return description === null ? block : `${description}\n\n${block}`;
}

/** The description without its block, and what the block says (nothing when there is none, or it is not JSON). */
export function readConnectorBlock(description: string): { description: string; block?: ConnectorBlock } {
  const match = BLOCK.exec(description);
  if (!match) return { description };
  let data: unknown;
  try {
    data = JSON.parse(match[1]);
  } catch {
    return { description };
  }
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const { tags, left } = tagsFrom(record.tags);
  return { description: description.slice(0, match.index), block: { output: outputFrom(record.output), tags, tagsLeft: left } };
}

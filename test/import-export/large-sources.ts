import { stringify } from 'yaml';
/**
 * Large import sources made at test time (no third-party document is committed): an OpenAPI document and a Postman
 * collection of many operations, grouped by tag or folder, padded to an exact size with text no connector carries.
 */

/** An OpenAPI 3.0 document of `operations` POST operations in `groups` tags, each with a distinct example body of `bodyBytes`, `bytes` long as JSON. */
export function largeOpenApi({
  operations,
  groups = 50,
  bodyBytes = 0,
  bytes,
}: {
  operations: number;
  groups?: number;
  bodyBytes?: number;
  bytes?: number;
}): string {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < operations; index++) {
    paths[`/groups/${index % groups}/items/${index}`] = {
      post: {
        operationId: `item${index}`,
        tags: [`Group ${index % groups}`, 'Items'],
        summary: `Item ${index}`,
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' }, example: { index, note: 'n'.repeat(bodyBytes) } } },
        },
        responses: { 200: { description: 'The item', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    };
  }
  const document = {
    openapi: '3.0.3',
    info: { title: 'Large', version: '1', description: '' },
    servers: [{ url: 'https://api.example.com/v1' }],
    paths,
    components: { schemas: { Item: { type: 'object', properties: { index: { type: 'integer' }, note: { type: 'string' } } } } },
  };
  return padded(document, document.info, bytes);
}

/** A Postman collection v2.1 of `requests` requests, in `groups` folders each holding a subfolder, `bytes` long as JSON. */
export function largeCollection({ requests, groups = 50, bytes }: { requests: number; groups?: number; bytes?: number }): string {
  const folders = Array.from({ length: groups }, (_, group) => ({
    name: `Group ${group}`,
    item: [{ name: 'Items', item: [] as unknown[] }],
  }));
  for (let index = 0; index < requests; index++) {
    folders[index % groups].item[0].item.push({
      name: `Item ${index}`,
      request: {
        method: 'POST',
        header: [{ key: 'Content-Type', value: 'application/json' }],
        url: `https://api.example.com/v1/items/${index}`,
        body: { mode: 'raw', raw: JSON.stringify({ index }), options: { raw: { language: 'json' } } },
      },
    });
  }
  const collection = {
    info: { name: 'Large', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json', description: '' },
    item: folders,
  };
  return padded(collection, collection.info, bytes);
}

/** `value` as JSON, `bytes` long when given: `holder.description` padded with text no connector carries. */
function padded(value: object, holder: { description: string }, bytes: number | undefined): string {
  const unpadded = JSON.stringify(value);
  if (bytes === undefined) return unpadded;
  if (Buffer.byteLength(unpadded) > bytes) throw new Error(`the source is ${Buffer.byteLength(unpadded)} bytes before padding, over ${bytes}`);
  holder.description = 'd'.repeat(bytes - Buffer.byteLength(unpadded));
  return JSON.stringify(value);
}

/**
 * An OpenAPI document as dense YAML, about `bytes` long: 1,000 operations, each with an inline schema of small
 * properties (no padding: every line is a node the YAML reader builds), as real descriptions are written.
 */
export function denseYamlOpenApi(bytes: number): string {
  const operations = 1000;
  // About 25 bytes of YAML a property line and 70 for its type and description.
  const properties = Math.floor(bytes / operations / 127);
  const document = JSON.parse(largeOpenApi({ operations })) as { paths: Record<string, { post: Record<string, unknown> }> };
  for (const [path, { post }] of Object.entries(document.paths)) {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: properties }, (_, index) => [`field${index}`, { type: 'string', description: `Field ${index} of ${path}` }]),
      ),
    };
    post.requestBody = { content: { 'application/json': { schema } } };
  }
  return stringify(document, { lineWidth: 0 });
}

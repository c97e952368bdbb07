import { ApiExtension, OpenAPIObject } from '@nestjs/swagger';
import type { MediaTypeObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Where ApiAlternativeBodies keeps its media types until withAlternativeBodies moves them. */
const EXTENSION = 'x-alternative-bodies';

/**
 * Request bodies of other media types beside the operation's `@ApiBody` (its application/json), each with a schema
 * of its own (Nest's ApiConsumes would give them all the JSON body's): Swagger UI then offers a media type picker, a
 * text area for a text body, a file picker for a binary part.
 */
export const ApiAlternativeBodies = (content: Record<string, MediaTypeObject>): MethodDecorator => ApiExtension(EXTENSION, content);

/** Each operation's alternative bodies (ApiAlternativeBodies) moved into its `requestBody.content`, after the JSON one. */
export function withAlternativeBodies(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, Record<string, unknown>>)) {
      const alternatives = operation?.[EXTENSION] as Record<string, MediaTypeObject> | undefined;
      if (alternatives === undefined) continue;
      delete operation[EXTENSION];
      const body = operation.requestBody as { content: Record<string, MediaTypeObject> } | undefined;
      if (!body) throw new Error(`${String(operation.operationId)} has alternative bodies but no @ApiBody`);
      body.content = { ...body.content, ...alternatives };
    }
  }
  return document;
}

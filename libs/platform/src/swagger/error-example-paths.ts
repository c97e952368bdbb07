import { OpenAPIObject } from '@nestjs/swagger';
import { EXAMPLE_IDS } from '../http/api-error-responses.decorator';

type Operation = { responses?: Record<string, { content?: Record<string, { example?: unknown }> }> };

/**
 * ApiErrorResponses cannot know which app or operation it decorates, so its examples' `path` is a stand-in.
 * Each error example gets the path of its own operation, ids filled in, so an app's document never shows
 * another app's URLs.
 */
export function withOwnErrorExamplePaths(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => {
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => EXAMPLE_IDS[name] ?? EXAMPLE_IDS.orgUUID);
      const operations = Object.entries(item as Record<string, Operation>).map(([method, operation]) => [method, withPath(operation, concrete)]);
      return [path, Object.fromEntries(operations)];
    }),
  );
  return { ...document, paths };
}

function withPath(operation: Operation, path: string): Operation {
  if (!operation.responses) return operation;
  const responses = Object.fromEntries(
    Object.entries(operation.responses).map(([status, response]) => {
      const json = response.content?.['application/json'];
      const example = json?.example as Record<string, unknown> | undefined;
      if (Number(status) < 400 || !example || typeof example !== 'object' || !('path' in example)) return [status, response];
      return [status, { ...response, content: { ...response.content, 'application/json': { ...json, example: { ...example, path } } } }];
    }),
  );
  return { ...operation, responses };
}

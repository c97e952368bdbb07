import { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/run-command';

export type AppName = 'transactional-service' | 'environment' | 'bot-admin';

export function committedDocument(app: AppName): OpenAPIObject {
  return JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi', `${app}.json`), 'utf8')) as OpenAPIObject;
}

export interface DocumentedOperation {
  path: string;
  method: string;
  operationId: string;
  summary: string;
}

export function operationsOf(document: OpenAPIObject): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId: string; summary: string }>).map(([method, operation]) => ({
      path,
      method,
      operationId: operation.operationId,
      summary: operation.summary,
    })),
  );
}

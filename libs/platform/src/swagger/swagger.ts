import { withAlternativeBodies } from './alternative-bodies';
import { INestApplication } from '@nestjs/common';
import type { Response } from 'express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { asyncApiDocumentPath, readAsyncApiDocument } from './asyncapi-document';
import { withOwnErrorExamplePaths } from './error-example-paths';
import { withNullableReferences } from './nullable-references';
import { withPlatformHeaders } from './platform-headers';
import { OperationGroup, PlatformAppDefinition } from '../app/platform-app.definition';

/** What Swagger UI hands its operationsSorter: Immutable.js maps. */
interface OperationEntry {
  get(key: 'operation'): { get(key: string): number | undefined };
}

export const BEARER_SCHEME = 'bearer';
/** What JwtVerifier enforces, in the words of the OWASP ruleset's check (RFC8725, JWT best practices). */
const BEARER_DESCRIPTION =
  'Paste the token alone: "Bearer " is added for you. Locally, `npm start` prints a development token, and ' +
  '`npm run token` makes another; in a deployment, the identity provider issues it. ' +
  'A JWS verified as RFC8725 recommends: only the configured algorithms (HS256 with the shared secret, or the ' +
  'asymmetric keys of AUTH_JWKS_URL), never `none`; `exp` required; issuer and audience checked outside development.';

export function buildOpenApiDocument(app: INestApplication, definition: PlatformAppDefinition): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(definition.title)
    .setDescription(definition.description)
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION }, BEARER_SCHEME)
    .addSecurityRequirements(BEARER_SCHEME);
  // Swagger UI shows it under the title. A path, not a URL: the ingress serves the app under its label, whatever the host.
  if (definition.asyncApiDocument) builder.setExternalDoc(ASYNCAPI_LINK_TEXT, asyncApiDocumentPath(definition.label));
  const config = builder.build();
  // Operation ids are the controller method names: stable across builds, readable in generated clients.
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  return withPlatformHeaders(
    withOwnErrorExamplePaths(withNullableReferences(withPlainSchemaNames(withAlternativeBodies(withTaskGroups(document, definition.groups))))),
  );
}

const ASYNCAPI_LINK_TEXT = 'The messages this app publishes: its AsyncAPI 3.0 document (YAML)';

/** The order Swagger UI shows a section's operations in: each operation's place in its group (withTaskGroups). */
const ORDER_EXTENSION = 'x-order';

/**
 * Tags every operation with its task group, in the groups' order (the document's `tags`, with their
 * descriptions), numbers it in the order a user works (`x-order`, which Swagger UI sorts by) and puts the paths
 * in that order. An operation of no group, or a group naming no operation, is a mistake in the app's definition.
 */
function withTaskGroups(document: OpenAPIObject, groups: OperationGroup[]): OpenAPIObject {
  const order = groups.flatMap((group) => group.operations.map((operationId) => ({ operationId, group: group.name })));
  const place = new Map(order.map((entry, index) => [entry.operationId, { ...entry, index }]));
  const seen = new Set<string>();
  const paths = Object.entries(document.paths).map(([path, item]) => {
    const operations = Object.entries(item as Record<string, { operationId?: string; tags?: string[] }>).map(([method, operation]) => {
      const found = place.get(operation.operationId ?? '');
      if (!found) throw new Error(`Operation ${operation.operationId} (${method.toUpperCase()} ${path}) belongs to no group of the app's definition`);
      seen.add(found.operationId);
      return [method, { ...operation, tags: [found.group], [ORDER_EXTENSION]: found.index }] as const;
    });
    return { path, first: Math.min(...operations.map(([, operation]) => operation[ORDER_EXTENSION])), item: Object.fromEntries(operations) };
  });
  const unused = order.filter((entry) => !seen.has(entry.operationId));
  if (unused.length > 0) throw new Error(`The app's groups name operations it does not have: ${unused.map((entry) => entry.operationId).join(', ')}`);
  return {
    ...document,
    tags: groups.map(({ name, description }) => ({ name, description })),
    paths: Object.fromEntries(paths.sort((a, b) => a.first - b.first).map(({ path, item }) => [path, item])),
  };
}

/**
 * `RestConnectorPageDto` is a class name; consumers read `RestConnectorPage`. Renames every schema
 * ending in `Dto` and every reference to it, so generated clients get the names of the API, not of ours.
 */
function withPlainSchemaNames(document: OpenAPIObject): OpenAPIObject {
  const plain = (name: string) => name.replace(/Dto$/, '');
  const result = JSON.parse(
    JSON.stringify(document).replace(/"#\/components\/schemas\/(\w+)"/g, (_, name: string) => `"#/components/schemas/${plain(name)}"`),
  ) as OpenAPIObject;
  const schemas = Object.entries(result.components?.schemas ?? {});
  result.components = { ...result.components, schemas: Object.fromEntries(schemas.map(([name, schema]) => [plain(name), schema])) };
  return result;
}

/**
 * Swagger UI at `/{label}/docs`, the OpenAPI 3 document at `/{label}/docs-json`, and the app's AsyncAPI document, if it
 * has one, at `/{label}/docs-asyncapi`, as committed in docs/asyncapi. Outside production, where `npm start` loads the
 * demo data, path ids come pre-filled with the app's `pathExamples`; in production the document is the committed one
 * (docs/openapi).
 */
export function setupSwagger(app: INestApplication, definition: PlatformAppDefinition, config: AppConfig): void {
  if (definition.asyncApiDocument) serveAsyncApiDocument(app, definition.label, readAsyncApiDocument(definition.asyncApiDocument));
  const document = () => buildOpenApiDocument(app, definition);
  const examples = definition.pathExamples;
  const served = config.nodeEnv === 'production' || !examples ? document : () => withPathExamples(document(), examples);
  SwaggerModule.setup(`${definition.label}/docs`, app, served, {
    jsonDocumentUrl: `${definition.label}/docs-json`,
    yamlDocumentUrl: `${definition.label}/docs-yaml`,
    customSiteTitle: definition.title,
    swaggerOptions: {
      persistAuthorization: true,
      displayOperationId: false,
      // Inlined in the init script as written (buildJSInitOptions): no closure, no `$`.
      operationsSorter: (a: OperationEntry, b: OperationEntry) => (a.get('operation').get('x-order') ?? 0) - (b.get('operation').get('x-order') ?? 0),
    },
  });
}

/** `text`, the YAML of an AsyncAPI document, at `/{label}/docs-asyncapi`, like the OpenAPI documents: no token, no body read. */
function serveAsyncApiDocument(app: INestApplication, label: string, text: string): void {
  app.getHttpAdapter().get(asyncApiDocumentPath(label), (_req: unknown, res: Response) => {
    res.type('application/yaml; charset=utf-8').send(text);
  });
}

/** `document` with each path parameter named in `examples` given that example. */
function withPathExamples(document: OpenAPIObject, examples: Readonly<Record<string, string>>): OpenAPIObject {
  const result = structuredClone(document);
  for (const item of Object.values(result.paths)) {
    for (const operation of Object.values(item as Record<string, { parameters?: Array<{ in?: string; name?: string; schema?: object }> }>)) {
      for (const parameter of operation.parameters ?? []) {
        const example = parameter.in === 'path' && parameter.name ? examples[parameter.name] : undefined;
        if (example) parameter.schema = { ...parameter.schema, example };
      }
    }
  }
  return result;
}

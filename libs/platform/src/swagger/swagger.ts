import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { withDemoPathIds } from '@app/seed-data';
import { withOwnErrorExamplePaths } from './error-example-paths';
import { withNullableReferences } from './nullable-references';
import { withPlatformHeaders } from './platform-headers';
import { PlatformAppDefinition } from '../app/platform-app.definition';

export const BEARER_SCHEME = 'bearer';
/** What JwtVerifier enforces, in the words of the OWASP ruleset's check (RFC8725, JWT best practices). */
const BEARER_DESCRIPTION =
  'Paste the token alone: "Bearer " is added for you. Locally, `npm start` prints a development token, and ' +
  '`npm run token` makes another; in a deployment, the identity provider issues it. ' +
  'A JWS verified as RFC8725 recommends: only the configured algorithms (HS256 with the shared secret, or the ' +
  'asymmetric keys of AUTH_JWKS_URL), never `none`; `exp` required; issuer and audience checked outside development.';

export function buildOpenApiDocument(app: INestApplication, definition: PlatformAppDefinition): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(definition.title)
    .setDescription(definition.description)
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION }, BEARER_SCHEME)
    .addSecurityRequirements(BEARER_SCHEME)
    .addTag(definition.label)
    .build();
  // Operation ids are the controller method names: stable across builds, readable in generated clients.
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  return withPlatformHeaders(withOwnErrorExamplePaths(withNullableReferences(withPlainSchemaNames(document))));
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
 * Swagger UI at `/{label}/docs`, the OpenAPI 3 document at `/{label}/docs-json`. Outside production, where
 * `npm start` loads the demo data, path ids come pre-filled with the demo's; in production the document
 * is the committed one (docs/openapi).
 */
export function setupSwagger(app: INestApplication, definition: PlatformAppDefinition, config: AppConfig): void {
  const document = () => buildOpenApiDocument(app, definition);
  const served = config.nodeEnv === 'production' ? document : () => withDemoPathIds(document());
  SwaggerModule.setup(`${definition.label}/docs`, app, served, {
    jsonDocumentUrl: `${definition.label}/docs-json`,
    yamlDocumentUrl: `${definition.label}/docs-yaml`,
    customSiteTitle: definition.title,
    swaggerOptions: { persistAuthorization: true, displayOperationId: false },
  });
}

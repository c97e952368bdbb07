import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PlatformAppDefinition } from './platform-app.definition';

export const BEARER_SCHEME = 'bearer';

export function buildOpenApiDocument(app: INestApplication, definition: PlatformAppDefinition): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(definition.title)
    .setDescription(definition.description)
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .addSecurityRequirements(BEARER_SCHEME)
    .addTag(definition.label)
    .build();
  // Operation ids are the controller method names: stable across builds, readable in generated clients.
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
}

/** Swagger UI at `/{label}/docs`, the OpenAPI 3 document at `/{label}/docs-json`. */
export function setupSwagger(app: INestApplication, definition: PlatformAppDefinition): void {
  SwaggerModule.setup(`${definition.label}/docs`, app, () => buildOpenApiDocument(app, definition), {
    jsonDocumentUrl: `${definition.label}/docs-json`,
    yamlDocumentUrl: `${definition.label}/docs-yaml`,
    customSiteTitle: definition.title,
    swaggerOptions: { persistAuthorization: true, displayOperationId: false },
  });
}

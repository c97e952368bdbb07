import { OpenAPIObject } from '@nestjs/swagger';
import { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { withNullableReferences } from './nullable-references';

const documentWith = (properties: Record<string, object>): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {},
  components: {
    schemas: {
      GrantType: { type: 'string', enum: ['CLIENT_CREDENTIALS', 'PASSWORD'] },
      Owner: { type: 'object', properties: { name: { type: 'string' } } },
      Connector: { type: 'object', properties: properties as Record<string, SchemaObject> },
    },
  },
});
const propertiesOf = (document: OpenAPIObject) => (document.components!.schemas!.Connector as { properties: Record<string, unknown> }).properties;

describe('withNullableReferences', () => {
  it('turns a nullable allOf of a $ref, which admits no null in OpenAPI 3.0, into the $ref or a typed null', () => {
    const document = documentWith({
      grantType: { nullable: true, description: 'OAuth only', allOf: [{ $ref: '#/components/schemas/GrantType' }] },
      owner: { nullable: true, $ref: '#/components/schemas/Owner' },
      // A class given as `type` with nullable: @nestjs/swagger adds `type: 'object'` beside the allOf.
      response: { nullable: true, type: 'object', description: 'Null when no answer came.', allOf: [{ $ref: '#/components/schemas/Owner' }] },
    });

    expect(propertiesOf(withNullableReferences(document))).toEqual({
      response: { description: 'Null when no answer came.', anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'object', nullable: true, enum: [null] }] },
      grantType: {
        description: 'OAuth only',
        anyOf: [{ $ref: '#/components/schemas/GrantType' }, { type: 'string', nullable: true, enum: [null] }],
      },
      owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'object', nullable: true, enum: [null] }] },
    });
  });

  it('leaves typed nullable schemas, non-nullable references and the referenced schemas as they are', () => {
    const properties = {
      description: { type: 'string', nullable: true },
      requestType: { allOf: [{ $ref: '#/components/schemas/GrantType' }] },
    };
    const document = documentWith(properties);

    expect(withNullableReferences(document)).toEqual(document);
  });
});

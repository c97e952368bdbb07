import { IMPORT_LIMITS, isHttpUrlWithPlaceholders } from '@app/domain';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import fc from 'fast-check';
import { ImportDraft, ImportSourceError } from '../connector-draft';
import { importOpenApi } from './import-openapi';
import { aDocument, aDocumentWith } from './testing/openapi-factories';

const sut = importOpenApi;

/** Imported, or refused with an ImportSourceError: anything else thrown fails the test. */
async function outcomeOf(source: string): Promise<ImportDraft | ImportSourceError> {
  try {
    return await sut(source, {});
  } catch (error) {
    if (error instanceof ImportSourceError) return error;
    throw error;
  }
}

/** What the service's validation would refuse in a draft (docs/api-contract.md, "Rest connectors"). */
function problemsOf(draft: ImportDraft): string[] {
  return draft.connectors.flatMap((connector) => [
    ...(connector.name.length < 1 || connector.name.length > 100 || /[\r\n\0]/.test(connector.name) ? [`name ${connector.name}`] : []),
    ...(isHttpUrlWithPlaceholders(connector.url, 2048) ? [] : [`url ${connector.url}`]),
    ...(connector.headers.length > 50 ? ['headers'] : []),
    ...connector.headers
      .filter(({ header, value }) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(header) || /[\r\n\0]/.test(value))
      .map(({ header }) => `header ${header}`),
    ...(connector.body.length > 65_536 ? ['body'] : []),
    ...((connector.description?.length ?? 0) > 1000 ? ['description'] : []),
  ]);
}

describe('importOpenApi with hostile input', () => {
  describe('never looks anything up', () => {
    // resolve.external: false (load-document.ts) returns from json-schema-ref-parser's resolveExternal before any
    // resolver runs; these spies would fail the test if a file, a name or a connection were ever tried anyway.
    const lookups = [
      jest.spyOn(fs.promises, 'readFile'),
      jest.spyOn(fs, 'readFile'),
      jest.spyOn(dns, 'lookup'),
      jest.spyOn(dns.promises, 'lookup'),
      jest.spyOn(net, 'connect'),
      jest.spyOn(net, 'createConnection'),
      jest.spyOn(tls, 'connect'),
      jest.spyOn(http, 'request'),
      jest.spyOn(https, 'request'),
      jest.spyOn(globalThis, 'fetch'),
    ];
    afterAll(() => lookups.forEach((spy) => spy.mockRestore()));

    it.each(['./other.yaml#/components/schemas/Pet', 'https://schemas.example.com/pet.yaml', 'file:///etc/passwd', '//schemas.example.com/pet.json'])(
      'leaves the external $ref %s unresolved and says so',
      async (ref) => {
        const document = aDocumentWith({ requestBody: { content: { 'application/json': { schema: { $ref: ref } } } } });

        const draft = await sut(JSON.stringify(document), {});

        expect(draft.connectors[0].body).toBe('');
        expect(draft.warnings.map((found) => found.code)).toEqual(['EXTERNAL_REF_NOT_FETCHED', 'BODY_LEFT_EMPTY']);
        expect(draft.warnings[0]).toEqual({
          code: 'EXTERNAL_REF_NOT_FETCHED',
          where: 'document',
          message: `1 $ref(s) point outside the document, which an import never fetches; those parts are left out (bundle the document into one file first): ${ref} at #/paths/~1pets~1{petId}/post/requestBody/content/application~1json/schema`,
        });
        lookups.forEach((spy) => expect(spy).not.toHaveBeenCalled());
      },
    );

    it('imports an operation whose parameters and security schemes are external $refs, without them', async () => {
      const document = aDocumentWith(
        { parameters: [{ $ref: 'https://schemas.example.com/parameters.yaml#/petId' }], security: [{ remote: [] }] },
        { components: { securitySchemes: { remote: { $ref: './security.yaml#/remote' } } } },
      );

      const draft = await sut(JSON.stringify(document), {});

      expect(draft.connectors[0]).toMatchObject({ url: 'https://api.example.com/v1/pets/{{petId}}', authType: 'AUTH_NONE' });
      // The validator misses the path parameter it cannot see behind its $ref.
      expect(draft.warnings.map((found) => found.code)).toEqual(['DOCUMENT_WARNING', 'EXTERNAL_REF_NOT_FETCHED', 'UNSUPPORTED_SECURITY_SCHEME']);
      lookups.forEach((spy) => expect(spy).not.toHaveBeenCalled());
    });
  });

  describe('refuses what would exhaust time, memory or the stack', () => {
    it('refuses a YAML alias bomb', async () => {
      const bomb = [
        'a: &a [x, x, x, x, x, x, x, x, x]',
        'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
        'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
        'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      ];

      await expect(sut(bomb.join('\n'), {})).rejects.toThrow(
        new ImportSourceError('document', 'cannot be read: Excessive alias count indicates a resource exhaustion attack'),
      );
    });

    it('refuses $refs that expand exponentially before the validator walks them', async () => {
      const schemas: Record<string, unknown> = { S40: { type: 'string' } };
      for (let level = 0; level < 40; level++) {
        schemas[`S${level}`] = {
          type: 'object',
          properties: { a: { $ref: `#/components/schemas/S${level + 1}` }, b: { $ref: `#/components/schemas/S${level + 1}` } },
        };
      }
      const document = aDocumentWith(
        { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } } },
        { components: { schemas } },
      );

      await expect(sut(JSON.stringify(document), {})).rejects.toThrow(
        /^source document: the document with its \$refs replaced expands to more than 4000000 values/,
      );
    });

    it.each([
      ['JSON', `{"openapi": "3.1.0", "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
      ['YAML', `openapi: 3.1.0\nx: ${'['.repeat(5_000)}${']'.repeat(5_000)}`],
    ])('refuses %s nested deeper than any document needs', async (_format, source) => {
      await expect(outcomeOf(source)).resolves.toBeInstanceOf(ImportSourceError);
    });

    it.each([
      ['flow collections', `openapi: 3.1.0\nx: ${'['.repeat(201)}`, 'line 2'],
      ['compact sequences', `openapi: 3.1.0\nx:\n${'- '.repeat(201)}a`, 'line 3'],
      ['indented mappings', `openapi: 3.1.0\n${Array.from({ length: 201 }, (_, level) => `${' '.repeat(level)}k:`).join('\n')} v`, 'line 202'],
    ])('refuses YAML %s nested deeper than 200 levels before the YAML parser reads them', async (_nesting, source, where) => {
      await expect(sut(source, {})).rejects.toThrow(new ImportSourceError(where, 'nests more than 200 levels deep: no OpenAPI document needs that'));
    });

    it('counts no bracket of a quoted scalar, a block scalar or a comment as nesting', async () => {
      const brackets = '['.repeat(300);
      const source = `openapi: 3.0.3\ninfo:\n  title: "${brackets}"\n  version: '${brackets}'\n  # ${brackets}\n  description: |\n    ${brackets}\npaths: {}`;

      await expect(sut(source, {})).resolves.toEqual({ connectors: [], warnings: [] });
    });

    it('refuses a mapping of more than 10,000 keys before the validator reads it', async () => {
      const keys = Array.from({ length: 10_001 }, (_, index) => `  k${index}: v`).join('\n');

      await expect(sut(`openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\ncomponents:\n schemas:\n${keys}`, {})).rejects.toThrow(
        new ImportSourceError(
          '/components/schemas',
          'has more than 10000 keys in one mapping (10001): no OpenAPI document needs that many; import a trimmed copy',
        ),
      );
    });

    it('says where a chain of $refs too long to follow starts to be refused, without the server`s paths or options', async () => {
      const schemas = Object.fromEntries(
        Array.from({ length: 600 }, (_, index) => [`S${index}`, index < 599 ? { $ref: `#/components/schemas/S${index + 1}` } : { type: 'string' }]),
      );
      const document = aDocumentWith(
        { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } } },
        { components: { schemas } },
      );

      await expect(sut(JSON.stringify(document), {})).rejects.toThrow(
        new ImportSourceError(
          '#/components/schemas/S500',
          'is reached through more than 500 $refs in a row (a $ref to a $ref to a $ref …): point each $ref at the schema itself',
        ),
      );
    });

    it.each([
      ['a schema that is its own $ref', { A: { $ref: '#/components/schemas/A' } }],
      ['two schemas that point at each other', { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } }],
      [
        'a recursive schema',
        { A: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' }, list: { type: 'array', items: { $ref: '#/components/schemas/A' } } } } },
      ],
    ])('imports or refuses %s without hanging', async (_case, schemas) => {
      const document = aDocumentWith(
        { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } },
        { components: { schemas } },
      );

      const outcome = await outcomeOf(JSON.stringify(document));

      if (!(outcome instanceof ImportSourceError)) expect(problemsOf(outcome)).toEqual([]);
    });

    it('imports a $ref to the document root (a cycle through everything)', async () => {
      const document = aDocumentWith({ requestBody: { content: { 'application/json': { example: { $ref: '#' } } } } });

      const draft = await sut(JSON.stringify(document), {});

      expect(draft.connectors[0].body).toBe('');
      expect(draft.warnings.map((found) => found.code)).toEqual(['BODY_LEFT_EMPTY']);
    });

    it('imports 1 MiB of operations', async () => {
      const paths = Object.fromEntries(
        Array.from({ length: 2_000 }, (_, index) => [
          `/items/${index}/{id}`,
          { get: { operationId: `get${index}`, description: 'd'.repeat(400), responses: { '200': { description: 'ok' } } } },
        ]),
      );
      const source = JSON.stringify(aDocument({ paths }));
      expect(source.length).toBeGreaterThan(900_000);

      const select = Array.from({ length: 200 }, (_, index) => `get${index * 10}`);

      const draft = await sut(source, { select });

      expect(draft.connectors).toHaveLength(200);
    });

    it('refuses more operations than an import creates before validating or drafting them, unless select chooses', async () => {
      const paths: Record<string, Record<string, unknown>> = Object.fromEntries(
        Array.from({ length: IMPORT_LIMITS.connectors + 1 }, (_, index) => [`/items/${index}`, { get: { responses: { '200': { description: 'ok' } } } }]),
      );
      // One more that is never imported (a connector cannot send TRACE), so it is not counted.
      paths['/items/0'] = { ...paths['/items/0'], trace: { responses: { '200': { description: 'ok' } } } };

      await expect(sut(JSON.stringify(aDocument({ paths })), {})).rejects.toThrow(
        new ImportSourceError(
          'paths',
          'hold 1001 operations; an import creates at most 1000 connectors: choose some with select (operationIds or "METHOD /path"s such as "GET /pets")',
        ),
      );
      await expect(sut(JSON.stringify(aDocument({ paths })), { select: ['GET /items/7'] })).resolves.toMatchObject({
        connectors: [{ url: 'https://api.example.com/v1/items/7' }],
      });
    });
  });

  describe('reads document keys as data', () => {
    it('keeps __proto__, constructor and prototype as names, and pollutes nothing', async () => {
      const source = `{
        "openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
        "paths": {"/__proto__": {"get": {"operationId": "constructor", "security": [{"__proto__": []}],
          "parameters": [{"name": "__proto__", "in": "query", "required": true, "schema": {"type": "string"}}],
          "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"__proto__": {"type": "object", "properties": {"polluted": {"type": "boolean", "default": true}}}}}}}},
          "responses": {"200": {"description": "ok"}}}}},
        "components": {"securitySchemes": {"__proto__": {"type": "http", "scheme": "bearer"}}}
      }`;

      const draft = await sut(source, {});

      expect(draft.connectors[0]).toMatchObject({
        name: 'constructor',
        url: 'https://api.example.com/__proto__?__proto__={{__proto__}}',
        authType: 'AUTH_BEARER',
      });
      expect(JSON.parse(draft.connectors[0].body)).toEqual(JSON.parse('{"__proto__": {"polluted": true}}'));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses a lone surrogate, which the API refuses in any string', async () => {
      await expect(sut(JSON.stringify(aDocumentWith({ operationId: 'a\ud800b' })), {})).rejects.toThrow(/^source document: holds a lone UTF-16 surrogate/);
    });
  });

  describe('never quotes a credential', () => {
    const secret = 'S3cr3tV4lue';
    const swagger = (host: string) => ({
      swagger: '2.0',
      info: { title: 'x', version: '1' },
      host,
      paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
    });

    it.each([
      ['user info in a server URL without scheme', aDocument({ servers: [{ url: `//ana:${secret}@api.example.com/v1` }] })],
      ['user info written without //', aDocument({ servers: [{ url: `ana:${secret}@api.example.com/v1` }] })],
      ['a token in a relative server URL', aDocument({ servers: [{ url: `/v1?api_key=${secret}` }] })],
      ['a token in a server variable', aDocument({ servers: [{ url: '{base}/v1', variables: { base: { default: `/x?access_token=${secret}` } } }] })],
      [
        'user info and tokens in other servers',
        aDocument({ servers: [{ url: 'https://a.example.com' }, { url: `https://ana:${secret}@b.example.com/?key=${secret}` }] }),
      ],
      ['a token as the user of a Swagger 2.0 host', swagger(`${secret}@api.example.com`)],
      [
        'user info and a token in an external $ref and an external example',
        aDocumentWith({
          requestBody: {
            content: {
              'application/json': {
                schema: { $ref: `https://ana:${secret}@schemas.example.com/pet.yaml?token=${secret}` },
                examples: { pet: { externalValue: `https://ana:${secret}@examples.example.com/pet.json?token=${secret}` } },
              },
            },
          },
        }),
      ],
    ])('%s, in a warning or an error', async (_, document) => {
      const outcome = await outcomeOf(JSON.stringify(document));
      const shown = outcome instanceof ImportSourceError ? outcome.message : JSON.stringify(outcome.warnings);
      expect(shown).not.toContain(secret);
    });
  });

  describe('values of the wrong type', () => {
    it.each([
      ['operationId', { operationId: 5 }],
      ['parameters', { parameters: 'petId' }],
      ['a parameter', { parameters: [null, 7, { name: 5, in: 'query' }] }],
      ['requestBody', { requestBody: [] }],
      ['content', { requestBody: { content: { 'application/json': 'x' } } }],
      ['security', { security: 'bearer' }],
      ['a security requirement', { security: [null, 'x', { bearer: 'x' }] }],
      ['servers', { servers: [{ url: 5 }] }],
      ['callbacks', { callbacks: 5 }],
    ])('imports or refuses a wrong %s, never throwing anything else', async (_field, operation) => {
      const outcome = await outcomeOf(JSON.stringify(aDocumentWith(operation)));

      if (!(outcome instanceof ImportSourceError)) expect(problemsOf(outcome)).toEqual([]);
    });

    it.each([
      ['paths', { paths: [] }],
      ['a path item', { paths: { '/a': 5 } }],
      ['servers', { servers: 'https://api.example.com' }],
      ['security schemes', { components: { securitySchemes: [] } }],
      ['the server variables', { servers: [{ url: 'https://{a}.example.com', variables: { a: { default: 5 } } }] }],
    ])('imports or refuses wrong %s', async (_field, root) => {
      const outcome = await outcomeOf(JSON.stringify(aDocument(root)));

      if (!(outcome instanceof ImportSourceError)) expect(problemsOf(outcome)).toEqual([]);
    });

    it.each(['', 'null', '42', '"text"', '[]', '{', '\u0000\u0001', 'openapi: [', '%YAML 1.2\n---\na: 1\n---\nb: 2', '!!binary AAAA', '{"swagger": 2}'])(
      'refuses %j',
      async (source) => {
        await expect(outcomeOf(source)).resolves.toBeInstanceOf(ImportSourceError);
      },
    );
  });

  describe('arbitrary values anywhere in an operation', () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const operationParts = fc.record(
      {
        operationId: anyJson,
        summary: anyJson,
        parameters: fc.oneof(
          anyJson,
          fc.array(fc.record({ name: fc.string(), in: fc.constantFrom('path', 'query', 'header', 'cookie', 'body'), required: fc.boolean(), schema: anyJson })),
        ),
        requestBody: fc.oneof(anyJson, fc.record({ content: fc.dictionary(fc.string(), fc.record({ example: anyJson, schema: anyJson })) })),
        security: anyJson,
        servers: fc.oneof(anyJson, fc.array(fc.record({ url: fc.oneof(fc.webUrl(), fc.string()) }))),
      },
      { requiredKeys: [] },
    );

    it('only ever imports valid drafts or refuses with an ImportSourceError', async () => {
      await fc.assert(
        fc.asyncProperty(operationParts, fc.string(), async (operation, path) => {
          const document = aDocument({ paths: { [`/${path}`]: { get: { responses: { '200': { description: 'ok' } }, ...operation } } } });

          const outcome = await outcomeOf(JSON.stringify(document));

          if (!(outcome instanceof ImportSourceError)) expect(problemsOf(outcome)).toEqual([]);
        }),
        { numRuns: 60 },
      );
    });
  });
});

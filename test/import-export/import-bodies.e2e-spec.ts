import { IMPORT_LIMITS, SecretCipher, secretContext } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ALICE, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/** A cURL command as a vendor's docs print it: line continuations, quotes, a variable for the token. */
const CURL =
  "curl -X POST 'https://api.example.com/v1/orders?source=bot' \\\n" +
  "  -H 'Content-Type: application/json' \\\n" +
  '  -H "Authorization: Bearer $ORDERS_TOKEN" \\\n' +
  '  --data-raw \'{"sku": 42, "note": "say \\"hi\\""}\'\n';
const YAML = [
  'openapi: 3.0.3',
  'info: { title: Orders, version: 1.0.0 }',
  'servers: [{ url: "https://orders.example.com/v1" }]',
  'components: { securitySchemes: { token: { type: http, scheme: bearer } } }',
  'security: [{ token: [] }]',
  'paths:',
  '  /orders/{id}:',
  '    get:',
  '      operationId: getOrder',
  '      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]',
  "      responses: { '200': { description: OK } }",
  '  /orders:',
  '    get: { operationId: listOrders, responses: { "200": { description: OK } } }',
  '    post: { operationId: createOrder, responses: { "200": { description: OK } } }',
  '',
].join('\n');
const COLLECTION = {
  info: { name: 'Orders', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [{ name: 'Get order', request: { method: 'GET', url: 'https://orders.example.com/v1/orders/1' } }],
};

/** The import route's bodies besides the JSON import request (issue 41): as people paste them, and as a file. MariaDB. */
describe('Import bodies: the source as it is, and uploads', () => {
  const config = mysqlTestConfig();
  const cipher = new SecretCipher(config.secretsKey!);
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config);
    token = await signToken(ALICE);
  });
  beforeEach(async () => {
    tenant = await seedTenant(sut.dataSource);
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());

  const post = (query = '') => sut.http.post(`${base}/import${query}`).set(bearer(token));
  const names = async () =>
    ((await sut.dataSource.query('SELECT name FROM rest_connectors WHERE bot_uuid = ? ORDER BY name', [tenant.bot.uuid])) as Array<{ name: string }>).map(
      ({ name }) => name,
    );
  const bearerOf = async (name: string) => {
    const [row] = await sut.dataSource.query('SELECT uuid, bearer_token AS sealed FROM rest_connectors WHERE bot_uuid = ? AND name = ?', [
      tenant.bot.uuid,
      name,
    ]);
    return cipher.decrypt(row.sealed, secretContext(row.uuid, 'bearerToken'));
  };

  describe('the source as the body', () => {
    it('takes a cURL command pasted as text/plain, the format and options in the query', async () => {
      const res = await post('?format=curl').set('Content-Type', 'text/plain').send(CURL).expect(200);

      expect(res.body).toMatchObject({ dryRun: true, warnings: expect.any(Array) });
      expect(res.body.connectors[0].connector).toMatchObject({
        requestType: 'POST',
        url: 'https://api.example.com/v1/orders?source=bot',
        authType: 'AUTH_BEARER',
        body: '{"sku": 42, "note": "say \\"hi\\""}',
      });
      expect(res.body.connectors[0].credentials).toEqual([expect.objectContaining({ field: 'bearerToken', from: 'MISSING', variable: 'ORDERS_TOKEN' })]);
      expect(await names()).toEqual([]);
    });

    it.each(['application/yaml', 'application/x-yaml; charset=utf-8'])('takes an OpenAPI document as %s, select repeated in the query', async (type) => {
      const res = await post('?format=openapi&select=getOrder&select=POST%20/orders&dryRun=true&onConflict=rename')
        .set('Content-Type', type)
        .send(YAML)
        .expect(200);

      expect(res.body.dryRun).toBe(true);
      expect(res.body.connectors.map(({ connector }: { connector: { name: string } }) => connector.name)).toEqual(['getOrder', 'createOrder']);
      // The credentials were never given: each connector asks for it, by field.
      expect(res.body.connectors[0].credentials).toEqual([expect.objectContaining({ field: 'bearerToken', from: 'MISSING' })]);
    });

    it('takes a Postman collection as the application/json body itself when the query names the format', async () => {
      const res = await post('?format=postman&dryRun=false').send(COLLECTION).expect(200);

      expect(res.body.connectors.map(({ uuid, connector }: { uuid: string; connector: { url: string } }) => [typeof uuid, connector.url])).toEqual([
        ['string', 'https://orders.example.com/v1/orders/1'],
      ]);
      expect(await names()).toEqual(['Get order']);
    });

    it('reads an application/json body without an import option in the query as the import request, as before', async () => {
      const res = await post().send(COLLECTION).expect(400);

      expect(res.body.message).toEqual(['info is not a field of this body', 'item is not a field of this body', 'format is required', 'source is required']);
    });

    it('never takes credentials from the query string, saying where to send them; a body without a format is a 400 naming the parameter', async () => {
      const credentials = await post('?format=curl&credentials=abc').set('Content-Type', 'text/plain').send(CURL).expect(400);
      const formatless = await post('?dryRun=true').set('Content-Type', 'text/plain').send(CURL).expect(400);

      expect(credentials.body.message).toEqual([expect.stringMatching(/^credentials are never taken from the query string .*multipart\/form-data upload$/)]);
      expect(formatless.body.message).toEqual([expect.stringMatching(/^format is missing: say what the body is with \?format=curl/)]);
    });

    it('validates the query options as the JSON import request does', async () => {
      const res = await post('?format=soap&dryRun=maybe&onConflict=merge').set('Content-Type', 'text/plain').send(CURL).expect(400);

      expect(res.body.message).toEqual(
        expect.arrayContaining([
          'format must be one of curl, openapi, postman; got "soap"',
          expect.stringMatching(/^dryRun must be/),
          'onConflict must be one of fail, skip, rename, update; got "merge"',
        ]),
      );
    });

    it('refuses another media type or charset with a 415 naming those taken, and a source over its limit with a 413', async () => {
      const csv = await post('?format=curl').set('Content-Type', 'text/csv').send('a,b').expect(415);
      const latin1 = await post('?format=curl').set('Content-Type', 'text/plain; charset=iso-8859-1').send('curl x').expect(415);
      const large = await post('?format=curl')
        .set('Content-Type', 'text/plain')
        .send(`curl https://api.example.com/ -d '${'x'.repeat(IMPORT_LIMITS.sourceBytes)}'`)
        .expect(413);

      expect(csv.body.message).toMatch(/^An import takes application\/json .*text\/plain, application\/yaml, application\/x-yaml .*multipart\/form-data/);
      expect(latin1.body.message).toBe(csv.body.message);
      expect(large.body.message).toBe(`Request body is larger than the limit of ${IMPORT_LIMITS.sourceBytes / 1024} KiB`);
    });
  });

  describe('multipart/form-data', () => {
    it('takes the source as the file part and the options, credentials included, as fields; the secret is sealed and answered nowhere', async () => {
      const res = await post()
        .attach('file', Buffer.from(YAML), { filename: 'orders.yaml', contentType: 'application/yaml' })
        .field('format', 'openapi')
        .field('select', 'getOrder')
        .field('select', 'listOrders')
        .field('dryRun', 'false')
        .field('credentials', JSON.stringify({ bearerToken: 'upload-token-77' }))
        .expect(200);

      expect(res.body.connectors.map(({ credentials }: { credentials: Array<{ from: string }> }) => credentials[0].from)).toEqual([
        'CREDENTIALS',
        'CREDENTIALS',
      ]);
      expect(await names()).toEqual(['getOrder', 'listOrders']);
      expect(await bearerOf('getOrder')).toBe('upload-token-77');
      expect(JSON.stringify(res.body)).not.toContain('upload-token-77');
      expect(JSON.stringify(sut.logs)).not.toContain('upload-token-77');
    });

    it('takes the options from the query string too, but never one option from both', async () => {
      const fromQuery = await post('?format=curl').attach('file', Buffer.from(CURL), 'order.sh').expect(200);
      const twice = await post('?format=curl').attach('file', Buffer.from(CURL), 'order.sh').field('format', 'curl').expect(400);

      expect(fromQuery.body.connectors).toHaveLength(1);
      expect(twice.body.message).toEqual(['format is given both in the query string and as a form field: give it once']);
    });

    it('refuses a form without the file part, with another part, or with credentials that are not JSON, naming each', async () => {
      const missing = await post().field('format', 'curl').expect(400);
      const other = await post().attach('source', Buffer.from(CURL), 'a.sh').field('format', 'curl').field('mode', 'x').expect(400);
      const credentials = await post().attach('file', Buffer.from(CURL), 'a.sh').field('format', 'curl').field('credentials', 'bearerToken=x').expect(400);

      expect(missing.body.message).toEqual(['The file part is missing: it holds the source']);
      expect(other.body.message).toEqual([
        '"source" is not a file part of an import: the source is the part named file',
        '"mode" is not a field of an import: format, dryRun, select, onConflict, credentials, postmanEnvironment',
      ]);
      expect(credentials.body.message).toEqual([expect.stringMatching(/^credentials must be a JSON object of strings/)]);
    });

    it('refuses a file over the source limit with a 413', async () => {
      const res = await post()
        .attach('file', Buffer.alloc(IMPORT_LIMITS.sourceBytes + 1, 'x'), 'big.yaml')
        .field('format', 'openapi')
        .expect(413);

      expect(res.body.message).toBe(`The file part is larger than the limit of ${IMPORT_LIMITS.sourceBytes / 1024} KiB`);
    });
  });

  describe('a malformed JSON import request', () => {
    it('names the line and column, and says how to send the source as it is instead', async () => {
      // A multi-line cURL command pasted between the quotes of a JSON import request.
      const res = await post().set('Content-Type', 'application/json').send(`{\n  "format": "curl",\n  "source": "${CURL}"\n}`).expect(400);

      expect(res.body.message).toBe(
        'Malformed JSON in request body at line 3, column 74: a backslash in a string must start an escape (write \\\\ for a backslash). ' +
          'To import a source as it is, send it as the body (Content-Type text/plain, application/yaml, or the OpenAPI document or Postman collection ' +
          'itself as application/json) with ?format=, or upload it as the file part of multipart/form-data',
      );
    });
  });
});

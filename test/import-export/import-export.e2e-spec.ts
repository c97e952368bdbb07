import { secretContext, SecretCipher } from '@app/domain';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { ALICE, createConnector, tenantPath, withApiKey, withBasicAuth, withBearerAuth } from '../rest-connectors/connector-factories';

/** Import and export of connectors (issue 31), on MariaDB, far sides on 127.0.0.2. */
describe('Import and export of connectors (MariaDB)', () => {
  const config = mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: 1_500, perMinute: 10_000 }) });
  const cipher = new SecretCipher(config.secretsKey!);
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide | undefined;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver());
    token = await signToken(ALICE);
  });
  beforeEach(async () => {
    // A bot of its own per test: counts and names start empty.
    tenant = await seedTenant(sut.dataSource);
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());
  afterEach(async () => {
    await side?.close();
    side = undefined;
  });

  const importing = (body: object, key?: string) => {
    const req = sut.http.post(`${base}/import`).set(bearer(token));
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const connectorsOfBot = async () =>
    (await sut.dataSource.query('SELECT uuid, name FROM rest_connectors WHERE bot_uuid = ? ORDER BY name', [tenant.bot.uuid])) as Array<{
      uuid: string;
      name: string;
    }>;
  const storedSecret = async (uuid: string, field: 'basicToken' | 'bearerToken' | 'apiKey', column: string) => {
    const [row] = await sut.dataSource.query(`SELECT ${column} AS sealed FROM rest_connectors WHERE uuid = ?`, [uuid]);
    return cipher.decrypt(row.sealed, secretContext(uuid, field));
  };

  describe('cURL', () => {
    // The shape of n8n #22699: a JSON body under a Content-Type with parameters, and a bearer token from a variable.
    const command =
      "curl -X POST 'https://api.example.com/v1/orders?source=bot' \\\n" +
      "  -H 'Content-Type: application/json; charset=utf-8' \\\n" +
      '  -H "Authorization: Bearer $ORDERS_TOKEN" \\\n' +
      '  --data-raw \'{"sku": 42, "price": 9.5, "gift": false}\'';

    it('answers a dry run with the create body (JSON kept as JSON, the token as auth), the credential it lacks, and creates nothing', async () => {
      const res = await importing({ format: 'curl', source: command }).expect(200);

      expect(res.body.dryRun).toBe(true);
      expect(res.body.connectors).toHaveLength(1);
      const [planned] = res.body.connectors;
      expect(planned.uuid).toBeUndefined();
      expect(planned.connector).toMatchObject({
        requestType: 'POST',
        url: 'https://api.example.com/v1/orders?source=bot',
        contentType: 'APPLICATION_JSON',
        authType: 'AUTH_BEARER',
        bearerToken: '<BEARER_TOKEN>',
        body: '{"sku": 42, "price": 9.5, "gift": false}',
      });
      expect(JSON.stringify(planned.connector.headers)).not.toMatch(/authorization/i);
      expect(planned.credentials).toEqual([expect.objectContaining({ field: 'bearerToken', from: 'MISSING', variable: 'ORDERS_TOKEN' })]);
      expect(await connectorsOfBot()).toEqual([]);
    });

    it('refuses to create while a credential is missing, naming it and where to send it; with credentials, creates the connector sealed', async () => {
      const refused = await importing({ format: 'curl', source: command, dryRun: false }).expect(400);
      expect(refused.body.message).toEqual([
        expect.stringMatching(
          /^connectors\.0 \(.+\): bearerToken is not in the source \(it names the variable ORDERS_TOKEN\): send it in credentials\.bearerToken$/,
        ),
      ]);
      expect(await connectorsOfBot()).toEqual([]);

      const created = await importing({ format: 'curl', source: command, dryRun: false, credentials: { bearerToken: 'tok-from-credentials-93' } }).expect(200);

      const [{ uuid }] = created.body.connectors;
      expect(created.body.connectors[0]).toMatchObject({ uuid, credentials: [expect.objectContaining({ field: 'bearerToken', from: 'CREDENTIALS' })] });
      expect(await storedSecret(uuid, 'bearerToken', 'bearer_token')).toBe('tok-from-credentials-93');
      const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(read.body).toMatchObject({ authType: 'AUTH_BEARER', bearerToken: '<BEARER_TOKEN>', contentType: 'APPLICATION_JSON' });
      const history = await sut.http.get(`${base}/${uuid}/versions`).set(bearer(token)).expect(200);
      expect(history.body.content.map(({ operation }: { operation: string }) => operation)).toEqual(['CREATED']);
      expect(JSON.stringify(created.body)).not.toContain('tok-from-credentials-93');
      expect(JSON.stringify(sut.logs)).not.toContain('tok-from-credentials-93');
    });

    it('makes -u the basic token, sealed, never a header; the secret appears in no answer or log line', async () => {
      const res = await importing({ format: 'curl', source: "curl -u 'ada:s3cr3t-Pa55' https://api.example.com/me", dryRun: false }).expect(200);

      const [{ uuid, connector, credentials }] = res.body.connectors;
      expect(connector).toMatchObject({ authType: 'AUTH_BASIC', basicToken: '<BASIC_TOKEN>', headers: [] });
      expect(credentials).toEqual([expect.objectContaining({ field: 'basicToken', from: 'SOURCE' })]);
      expect(await storedSecret(uuid, 'basicToken', 'basic_token')).toBe(Buffer.from('ada:s3cr3t-Pa55').toString('base64'));
      const [row] = await sut.dataSource.query('SELECT * FROM rest_connectors WHERE uuid = ?', [uuid]);
      expect(JSON.stringify(row)).not.toContain('s3cr3t-Pa55');
      expect(JSON.stringify(row)).not.toContain(Buffer.from('ada:s3cr3t-Pa55').toString('base64'));
      expect(JSON.stringify(res.body)).not.toContain('s3cr3t-Pa55');
      expect(JSON.stringify(sut.logs)).not.toContain('s3cr3t-Pa55');
    });

    it('refuses Windows cmd quoting with a 400 that says how to copy the command instead', async () => {
      const res = await importing({ format: 'curl', source: 'curl ^"https://api.example.com/x^" -H ^"Accept: application/json^"' }).expect(400);
      expect(res.body.message).toEqual([expect.stringMatching(/Windows/i)]);
    });

    it('runs a test of an imported connector against a far side: what the command described is what is sent', async () => {
      side = await farSide((received, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true, got: received.headers['x-api-key'] ?? null }));
      });
      const source = `curl '${side.url}/v2/track/{{trackingNumber}}' -g -H 'X-API-Key: k-imported-61' -H 'Accept: application/json'`;
      const res = await importing({ format: 'curl', source, dryRun: false }).expect(200);
      const [{ uuid, connector }] = res.body.connectors;
      expect(connector).toMatchObject({ authType: 'AUTH_API_KEY', apiKeyName: 'X-API-Key', apiKeyIn: 'HEADER', apiKey: '<API_KEY>' });

      const run = await sut.http
        .post(`${base}/${uuid}/test`)
        .set(bearer(token))
        .send({ variables: { trackingNumber: 'ZX 9' } })
        .expect(200);

      expect(side.received[0]).toMatchObject({ method: 'GET', url: '/v2/track/ZX%209', headers: { 'x-api-key': 'k-imported-61', accept: 'application/json' } });
      expect(run.body).toMatchObject({ outcome: 'SUCCESS', response: { json: { ok: true, got: '<API_KEY>' } } });
    });
  });

  describe('what the source declares is what is sent', () => {
    it('takes basic auth as a user and a password: asks only for the missing one, and makes the token', async () => {
      const source = 'curl -u "AC0123:$AUTH_TOKEN" https://api.example.com/2010-04-01/Accounts.json';
      const planned = await importing({ format: 'curl', source }).expect(200);
      expect(planned.body.connectors[0].credentials).toEqual([
        expect.objectContaining({ field: 'basicUsername', from: 'SOURCE' }),
        expect.objectContaining({ field: 'basicPassword', from: 'MISSING', variable: 'AUTH_TOKEN' }),
      ]);
      const refused = await importing({ format: 'curl', source, dryRun: false }).expect(400);
      expect(refused.body.message).toEqual([expect.stringMatching(/basicPassword is not in the source \(it names the variable AUTH_TOKEN\): send it in credentials\.basicPassword$/)]);

      const created = await importing({ format: 'curl', source, dryRun: false, credentials: { basicPassword: 'pw-from-credentials-58' } }).expect(200);

      const [{ uuid, connector }] = created.body.connectors;
      expect(connector).toMatchObject({ authType: 'AUTH_BASIC', basicToken: '<BASIC_TOKEN>' });
      expect(connector).not.toHaveProperty('basicUsername');
      expect(created.body.warnings).toEqual([]);
      expect(await storedSecret(uuid, 'basicToken', 'basic_token')).toBe(Buffer.from('AC0123:pw-from-credentials-58').toString('base64'));
      expect(JSON.stringify(created.body)).not.toContain('pw-from-credentials-58');
    });

    it('makes the token of -u $SID:$TOKEN from both parts given with the import', async () => {
      const created = await importing({
        format: 'curl',
        source: 'curl -u $SID:$TOKEN https://api.example.com/me',
        dryRun: false,
        credentials: { basicUsername: 'AC9', basicPassword: 'tok-41' },
      }).expect(200);

      expect(created.body.connectors[0].credentials.map(({ from }: { from: string }) => from)).toEqual(['CREDENTIALS', 'CREDENTIALS']);
      expect(await storedSecret(created.body.connectors[0].uuid, 'basicToken', 'basic_token')).toBe(Buffer.from('AC9:tok-41').toString('base64'));
    });

    it("keeps a vendor's media type, refuses one that does not fit its content type at write time, and sends a template's braces unchanged", async () => {
      side = await farSide((_received, res) => res.end('{}'));
      const body = '{"body": "Flight {{1}} departs at {{2}}", "to": "{{to}}"}';
      const source = `curl -X PATCH '${side.url}/v1/messages' -H 'Content-Type: application/merge-patch+json' --data-raw '${body}'`;
      const res = await importing({ format: 'curl', source, dryRun: false }).expect(200);
      const [{ uuid, connector }] = res.body.connectors;
      expect(connector).toMatchObject({ contentType: 'APPLICATION_JSON', headers: [{ header: 'Content-Type', value: 'application/merge-patch+json' }], body });

      const run = await sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send({ variables: { to: '+15550100' } }).expect(200);

      expect(run.body).toMatchObject({ outcome: 'SUCCESS', warnings: [] });
      expect(side.received[0]).toMatchObject({
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: '{"body": "Flight {{1}} departs at {{2}}", "to": "+15550100"}',
      });
      const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      const misfit = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...read.body, headers: [{ header: 'Content-Type', value: 'text/csv' }] })
        .expect(400);
      expect(misfit.body.message).toEqual([
        expect.stringMatching(/^headers\.0 Content-Type "text\/csv" does not fit contentType APPLICATION_JSON; the Content-Type that fits it: application\/json and every \+json type/),
      ]);
    });
  });

  describe('OpenAPI', () => {
    const OK = { 200: { description: 'OK' } };
    const document = {
      openapi: '3.0.3',
      info: { title: 'Shop', version: '1.0.0' },
      servers: [{ url: 'https://shop.example.com/api' }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } } },
      security: [{ key: [] }],
      paths: {
        '/products/{sku}': {
          get: { operationId: 'getProduct', parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }], responses: OK },
          delete: { operationId: 'deleteProduct', parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }], responses: OK },
        },
        '/orders': {
          post: { operationId: 'createOrder', requestBody: { content: { 'application/json': { example: { sku: 'A-1', qty: 2 } } } }, responses: OK },
        },
      },
    };

    it('creates the selected operations in one transaction, the security scheme as the auth settings, the key from credentials', async () => {
      const res = await importing({
        format: 'openapi',
        source: JSON.stringify(document),
        select: ['getProduct', 'POST /orders'],
        credentials: { apiKey: 'shop-key-0042' },
        dryRun: false,
      }).expect(200);

      expect(res.body.connectors.map(({ connector }: { connector: { url: string } }) => connector.url)).toEqual([
        'https://shop.example.com/api/products/{{sku}}',
        'https://shop.example.com/api/orders',
      ]);
      for (const { connector } of res.body.connectors) {
        expect(connector).toMatchObject({ authType: 'AUTH_API_KEY', apiKeyName: 'api_key', apiKeyIn: 'QUERY', apiKey: '<API_KEY>' });
      }
      expect(res.body.connectors[1].connector).toMatchObject({ requestType: 'POST', contentType: 'APPLICATION_JSON' });
      expect(JSON.parse(res.body.connectors[1].connector.body)).toEqual({ sku: 'A-1', qty: 2 });
      const stored = await connectorsOfBot();
      expect(stored).toHaveLength(2);
      for (const { uuid } of stored) expect(await storedSecret(uuid, 'apiKey', 'api_key')).toBe('shop-key-0042');
    });

    it("imports a real API's document (Figma's 400 KB of YAML) through the import's worker, within its memory", async () => {
      const source = readFileSync(join(__dirname, '../fixtures/import/openapi/figma-rest-api-spec/openapi.yaml'), 'utf8');

      const res = await importing({ format: 'openapi', source }).expect(200);

      expect(res.body.connectors).toHaveLength(54);
      expect(res.body.connectors[0].connector).toMatchObject({ authType: 'AUTH_API_KEY', apiKeyName: 'X-Figma-Token', apiKeyIn: 'HEADER' });
    });

    it('creates all or none: a name already taken in the bot is a 409 naming it and nothing of the import stays', async () => {
      const taken = await createConnector(sut, tenant, token, { name: 'createOrder' });
      const before = await connectorsOfBot();

      const res = await importing({ format: 'openapi', source: JSON.stringify(document), credentials: { apiKey: 'k' }, dryRun: false }).expect(409);

      expect(res.body.message).toMatch(
        new RegExp(`^A name of the import already belongs to active rest connectors of this bot: "createOrder" \\(${taken}\\); `),
      );
      expect(await connectorsOfBot()).toEqual(before);
    });

    it('says what is wrong with an invalid document and in which operation', async () => {
      const invalid = { ...document, paths: { '/orders': { post: { operationId: 'createOrder' } } } };
      const res = await importing({ format: 'openapi', source: JSON.stringify(invalid) }).expect(400);
      expect(res.body.message).toEqual([
        "source document: is not a valid OpenAPI document: REQUIRED must have required property 'responses' (responses is missing here!) at operation POST /orders",
      ]);
    });

    it('names a selector that matches nothing, and never fetches an external $ref', async () => {
      const unknown = await importing({ format: 'openapi', source: JSON.stringify(document), select: ['nope'] }).expect(400);
      expect(JSON.stringify(unknown.body.message)).toContain('nope');

      const external = {
        ...document,
        paths: { '/x': { get: { operationId: 'x', responses: { 200: { $ref: './elsewhere.yaml#/components/responses/Ok' } } } } },
      };
      const res = await importing({ format: 'openapi', source: JSON.stringify(external) });
      expect([200, 400]).toContain(res.status);
      expect(JSON.stringify(res.body)).toMatch(/elsewhere\.yaml/);
    });
  });

  describe('limits and bad input', () => {
    it('answers 400 for a source over 1 MiB and 413 for a body over the import route limit, 400 for an unknown format', async () => {
      const tooBig = await importing({ format: 'curl', source: `curl https://api.example.com/${'a'.repeat(1024 * 1024)}` }).expect(400);
      expect(tooBig.body.message).toEqual([expect.stringMatching(/^source must be at most 1048576 bytes/)]);
      await sut.http
        .post(`${base}/import`)
        .set(bearer(token))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ format: 'curl', source: 'x'.repeat(4 * 1024 * 1024) }))
        .expect(413);
      const format = await importing({ format: 'har', source: 'curl https://x.example.com' }).expect(400);
      expect(format.body.message).toEqual(['format must be one of curl, openapi, postman; got "har"']);
      // Other routes keep their 256 KiB limit.
      await sut.http
        .post(base)
        .set(bearer(token))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x', body: 'x'.repeat(300 * 1024) }))
        .expect(413);
    });

    it('refuses an import that would make more than 200 connectors, saying to select', async () => {
      const paths = Object.fromEntries(
        Array.from({ length: 201 }, (_, i) => [`/items/${i}`, { get: { operationId: `item${i}`, responses: { 200: { description: 'OK' } } } }]),
      );
      const res = await importing({
        format: 'openapi',
        source: JSON.stringify({ openapi: '3.0.3', info: { title: 'Many', version: '1' }, servers: [{ url: 'https://many.example.com' }], paths }),
      }).expect(400);
      expect(JSON.stringify(res.body.message)).toMatch(/at most 200/);
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a retry with the first import and creates nothing more; another body under the key is a 422', async () => {
      const body = { format: 'curl', source: 'curl https://api.example.com/ping', dryRun: false };

      const first = await importing(body, 'import-key-1').expect(200);
      const retry = await importing(body, 'import-key-1').expect(200);

      expect(retry.body).toEqual(first.body);
      expect(await connectorsOfBot()).toHaveLength(1);
      await importing({ ...body, source: 'curl https://api.example.com/pong' }, 'import-key-1').expect(422);
    });
  });

  describe('export', () => {
    const exported = (uuid: string, format: string) => sut.http.get(`${base}/${uuid}/export?format=${format}`).set(bearer(token));

    it.each(['curl', 'openapi', 'postman'])('exports as %s without any secret, and importing the export gives the connector back', async (format) => {
      for (const body of [
        withApiKey({ name: `Key ${format}`, apiKey: 'exp-key-771', url: 'https://api.example.com/v1/{{path}}?q={{q}}' }),
        withBearerAuth({
          name: `Bearer ${format}`,
          bearerToken: 'exp-bearer-772',
          requestType: 'POST',
          contentType: 'APPLICATION_JSON',
          body: '{"a": "{{b}}", "n": 1}',
        }),
        withBasicAuth({ name: `Basic ${format}`, basicToken: Buffer.from('u:exp-pass-773').toString('base64') }),
      ]) {
        const uuid = await createConnector(sut, tenant, token, body);
        const res = await exported(uuid, format).expect(200);
        expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
        const text = res.text;
        expect(text).not.toMatch(/exp-(key|bearer|pass)-77/);
        expect(text).not.toContain(Buffer.from('u:exp-pass-773').toString('base64'));

        const back = await importing({ format, source: text }).expect(200);
        const original = (await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200)).body;
        const [{ connector }] = back.body.connectors;
        for (const field of ['requestType', 'url', 'contentType', 'authType', 'apiKeyName', 'apiKeyIn', 'body', 'headers']) {
          expect([field, connector[field] ?? null]).toEqual([field, original[field]]);
        }
      }
    });

    it('is a 404 for a connector that is not there, and a 400 for an unknown format', async () => {
      const uuid = await createConnector(sut, tenant, token);
      await exported('0199aaaa-0000-7000-8000-00000000dead', 'curl').expect(404);
      const res = await exported(uuid, 'har').expect(400);
      expect(res.body.message).toEqual(['format must be one of curl, openapi, postman; got "har"']);
    });
  });
});

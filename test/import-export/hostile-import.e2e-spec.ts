import { IMPORT_LIMITS } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { ALICE, createConnector, tenantPath, withBearerAuth } from '../rest-connectors/connector-factories';

/**
 * Hostile inputs for import and export (issue 31), from a probe of the endpoints. Each `it` of "what an attacker
 * found" asserts what the contract and the project's rules require, and failed on the code the probe found (each was
 * fixed since); "handled" holds attacks the code refused or survived from the start.
 * No source names a non-loopback host that anything resolves: the import never resolves them, and no test run is made.
 */
describe('Import and export, hostile inputs (MariaDB)', () => {
  jest.setTimeout(300_000);
  const config = mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: 1_500, perMinute: 10_000 }) });
  const MiB = 1024 * 1024;
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver());
    token = await signToken(ALICE);
  });
  beforeEach(async () => {
    tenant = await seedTenant(sut.dataSource);
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());

  const importing = (body: object, key?: string) => {
    const req = sut.http.post(`${base}/import`).set(bearer(token));
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const rowsOfBot = async () => (await sut.dataSource.query('SELECT * FROM rest_connectors WHERE bot_uuid = ?', [tenant.bot.uuid])) as object[];
  const OK = { 200: { description: 'OK' } };
  const openapi = (paths: object, extra: object = {}) => ({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths,
    ...extra,
  });
  const info = { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' };

  describe('what an attacker found (each fixed; the test failed before)', () => {
    it('refuses a YAML mapping of 30,000 keys by their count, before the validator (uniqueKeys made the yaml reader quadratic)', async () => {
      // 30,000 keys, 330 KB: the `yaml` package checked each key against every earlier one of its mapping (11 s).
      const yaml = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n' + Array.from({ length: 30_000 }, (_, i) => `k${i}: v`).join('\n');
      const res = await importing({ format: 'openapi', source: yaml });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual([
        'source document: has more than 10000 keys in one mapping (30003): no OpenAPI document needs that many; import a trimmed copy',
      ]);
    });

    it('locates the error of invalid JSON with many keys from its position (it was reparsed as YAML to find the line, quadratic again)', async () => {
      const keys = Array.from({ length: 30_000 }, (_, i) => `"k${i}": 1`).join(', ');
      const source = `{"openapi": "3.0.3", ${keys}} trailing`;
      const res = await importing({ format: 'openapi', source });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual([
        `source line 1: is not valid JSON: Unexpected non-whitespace character after JSON at position ${source.indexOf('trailing')}`,
      ]);
      // A number YAML reads and JSON does not: the YAML reader found no error, so no line was named.
      const second = `{"openapi": "3.0.3", ${keys},\n"x": 01}`;
      const onLine2 = await importing({ format: 'openapi', source: second });
      expect(onLine2.body.message).toEqual([`source line 2: is not valid JSON: Unexpected number in JSON at position ${second.lastIndexOf('01') + 1}`]);
    });

    it('refuses 1 MiB of nesting brackets by their depth before the YAML parser reads them, not after seconds of recursion', async () => {
      for (const source of ['['.repeat(MiB), `x:\n${'- '.repeat(MiB / 2 - 2)}`]) {
        const res = await importing({ format: 'openapi', source });
        expect(res.status).toBe(400);
        // Not "Maximum call stack size exceeded", which the parser reached after seconds.
        expect(res.body.message).toEqual([expect.stringMatching(/^source line \d: nests more than 200 levels deep: no OpenAPI document needs that$/)]);
      }
    });

    it('bounds the warnings of a cURL import: 1 MiB of `-s` is not a 60 MB answer of 350,000 IGNORED_OPTION warnings', async () => {
      const head = 'curl https://api.example.com/x';
      const res = await importing({ format: 'curl', source: head + ' -s'.repeat(Math.floor((MiB - head.length) / 3)) });
      expect(res.status).toBe(200);
      // The Postman importer caps its warnings at 500 (WARNINGS_CUT); the cURL importer lists every one.
      expect(res.body.warnings.length).toBeLessThanOrEqual(501);
      expect(Buffer.byteLength(res.text)).toBeLessThan(MiB);

      // 1 MiB of options that each make a warning of their own: 500 listed, the rest counted, as the Postman importer does.
      const count = Math.floor((MiB - head.length) / 12);
      const distinct = await importing({
        format: 'curl',
        source: head + Array.from({ length: count }, (_, i) => ` --u${String(i).padStart(7, '0')}`).join(''),
      }).expect(200);
      expect(distinct.body.warnings).toHaveLength(501);
      expect(distinct.body.warnings[500]).toEqual({ code: 'WARNINGS_CUT', where: 'as a whole', message: `${count - 500} more warnings are not listed.` });
      expect(Buffer.byteLength(distinct.text)).toBeLessThan(MiB);
    });

    it('reads many --url-query options in linear time (each one re-parses the URL it grows: 4 s of blocked loop on 1 MiB)', async () => {
      const head = 'curl https://api.example.com/x';
      const res = await importing({ format: 'curl', source: head + ' --url-query a'.repeat(Math.floor((MiB - head.length) / 14)) });
      expect(res.status).toBe(400);
      // Refused from the lengths of the parts, before the URL is built (and split again for API keys).
      expect(res.body.message).toEqual([
        'source line 1: the URL with the query its --url-query options (or -G data) add is longer than 2048 characters: send fewer or shorter ones',
      ]);
    });

    it('refuses a command of 47,000 URLs before drafting a connector for each (about 2 s of blocked loop)', async () => {
      const urls = Math.floor((MiB - 4) / 22);
      const res = await importing({ format: 'curl', source: 'curl' + ' http://a.example.com/'.repeat(urls) });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toMatch(/at most 1000/);
      const refusal = (count: number) =>
        `source as a whole: holds ${count} requests (one per URL of each command): an import creates at most 1000 connectors; split the source into ` +
        'several imports, or pick at most 1000 with select (`line N`, or `line N, URL 2` for one URL of a command)';
      expect(res.body.message).toEqual([refusal(urls)]);
      // Counted before any is drafted: the draft of the last URL would refuse its scheme, and is never made.
      const lastBad = await importing({ format: 'curl', source: 'curl' + ' http://a.example.com/'.repeat(urls - 1) + ' ftp://a.example.com/' });
      expect(lastBad.body.message).toEqual([refusal(urls)]);
    });

    it('refuses an OpenAPI document of 12,000 operations before drafting them all (over a second before the 200 limit is checked)', async () => {
      const paths = Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`/i/${i}`, { get: { operationId: `o${i}`, responses: OK } }]));
      const res = await importing({ format: 'openapi', source: JSON.stringify(openapi(paths)) });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toMatch(/at most 1000/);
      // Counted by the importer before validating and drafting, not by the service after ("source holds 12000 connectors").
      expect(res.body.message).toEqual([
        'source paths: hold 12000 operations; an import creates at most 1000 connectors: choose some with select (operationIds or "METHOD /path"s such as "GET /pets")',
      ]);
    });

    it('bounds what one import creates: 120 KiB of OpenAPI sharing one example among 200 operations is a 400, not a 12 MB answer and 19 MB of writes', async () => {
      const operation = { requestBody: { $ref: '#/components/requestBodies/Note' }, responses: OK };
      const paths = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`/notes/${i}`, { post: { ...operation, operationId: `n${i}` } }]));
      const requestBodies = { Note: { content: { 'application/json': { example: { text: 'n'.repeat(60 * 1024) } } } } };
      const source = JSON.stringify(openapi(paths, { components: { requestBodies } }));
      expect(source.length).toBeLessThan(128 * 1024);

      for (const dryRun of [true, false]) {
        const res = await importing({ format: 'openapi', source, dryRun });
        expect(res.status).toBe(400);
        expect(res.body.message).toEqual([
          expect.stringMatching(
            /^source as a whole: its 200 connectors hold 11\.8 MiB of text together .* over the 4 MiB one import may create .*: import fewer with select \(the first 68 fit\)/,
          ),
        ]);
      }
      expect(await rowsOfBot()).toEqual([]);
      const fitting = await importing({ format: 'openapi', source, select: Array.from({ length: 68 }, (_, i) => `n${i}`), dryRun: false });
      expect(fitting.status).toBe(200);
      expect(await rowsOfBot()).toHaveLength(68);
    });

    it('counts control characters as the answer writes them: 256 KiB of cURL sharing a -d of 64 KiB of \\x01 among 30 URLs is a 400, not a 12 MB answer', async () => {
      // 1.9 MiB of UTF-8 together, under the bound as bytes; each \x01 is six bytes of JSON in the answer and in the
      // version's snapshot. An answer that large, to a caller that does not read it, crashed the app under the image's heap.
      const urls = Array.from({ length: 30 }, (_, i) => `'https://api.example.com/p${i}'`).join(' ');
      const source = `curl -X POST ${urls} -H 'Content-Type: text/plain' --data-raw $'${'\\x01'.repeat(64 * 1024)}'`;

      const res = await importing({ format: 'curl', source });

      expect(res.status).toBe(400);
      expect(res.body.message).toEqual([
        expect.stringMatching(/^source as a whole: its 30 connectors hold 11\.3 MiB of text together .*: import fewer with select \(the first 10 fit\)/),
      ]);
    });

    it('refuses one connector larger than a create can write (its change event was over NATS max_payload and stopped publishing for every tenant)', async () => {
      // 50 headers of 8 KiB of tabs and a 64 KiB body of \x01: within every field's limit, 1.2 MB as JSON.
      const headers = Array.from({ length: 50 }, (_, i) => `-H $'X-Large-${i}: a${'\t'.repeat(8190)}b'`).join(' ');
      const source = `curl -X POST 'https://api.example.com/big' ${headers} -H 'Content-Type: text/plain' --data-raw $'${'\x01'.repeat(64 * 1024)}'`;

      const res = await importing({ format: 'curl', source, dryRun: false });

      expect(res.status).toBe(400);
      expect(res.body.message).toEqual([
        expect.stringMatching(/^connectors\.0 \(line 1\) 1\.2 MiB: a connector holds at most 256 KiB of text .*leave it out with select$/),
      ]);
      expect(await rowsOfBot()).toEqual([]);
    });

    it('never keeps the password of an OpenAPI server URL (https://user:password@host) in the connector URL, answer or stored row', async () => {
      const secret = 'srv-pass-4417';
      const source = JSON.stringify(
        openapi({ '/x': { get: { operationId: 'x', responses: OK } } }, { servers: [{ url: `https://ada:${secret}@api.example.com` }] }),
      );
      const res = await importing({ format: 'openapi', source, dryRun: false });

      // cURL and Postman turn user info into basic auth; OpenAPI copies it into the URL, in clear.
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(JSON.stringify(await rowsOfBot())).not.toContain(secret);
      expect(JSON.stringify(sut.logs)).not.toContain(secret);
      expect(res.body.connectors[0].connector).toMatchObject({ url: 'https://api.example.com/x', authType: 'AUTH_BASIC' });
    });

    it('makes a cURL `-H "PRIVATE-TOKEN: …"` or `X-Auth-Token` the API-key auth, as the Postman importer does, never a header in clear', async () => {
      const secret = 'glpat-hdr-9931';
      // GitLab's documented call; the Postman importer's API_KEY_NAME knows these names, the cURL importer does not.
      const source = `curl --header "PRIVATE-TOKEN: ${secret}" "https://gitlab.example.com/api/v4/projects"\ncurl -H 'X-Auth-Token: ${secret}' https://api.example.com/v1/me`;
      const res = await importing({ format: 'curl', source, dryRun: false });

      expect(res.status).toBe(200);
      expect(res.body.connectors.map(({ connector }: { connector: { authType: string } }) => connector.authType)).toEqual(['AUTH_API_KEY', 'AUTH_API_KEY']);
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(JSON.stringify(await rowsOfBot())).not.toContain(secret);

      // A session cookie or the proxy's credentials have no auth setting to become: kept in clear, each with a warning.
      const kept = [
        { key: 'Cookie', value: `sid=${secret}` },
        { key: 'Proxy-Authorization', value: `Basic ${Buffer.from(`p:${secret}`).toString('base64')}` },
      ];
      const curl = await importing({
        format: 'curl',
        source: `curl https://api.example.com/x ${kept.map(({ key, value }) => `-H '${key}: ${value}'`).join(' ')}`,
      });
      const postman = await importing({
        format: 'postman',
        source: JSON.stringify({ info, item: [{ name: 'r', request: { method: 'GET', url: 'https://api.example.com/x', header: kept } }] }),
      });
      for (const answer of [curl, postman]) {
        expect(answer.status).toBe(200);
        expect(answer.body.warnings.filter(({ code }: { code: string }) => code === 'HEADER_MAY_HOLD_CREDENTIAL')).toHaveLength(2);
        expect(JSON.stringify(answer.body.warnings)).not.toContain(secret);
      }
    });

    it('does not show the server`s working directory in a 400 for a deep $ref chain, and says how to fix the document', async () => {
      const schemas = Object.fromEntries(
        Array.from({ length: 600 }, (_, i) => [`S${i}`, i + 1 < 600 ? { $ref: `#/components/schemas/S${i + 1}` } : { type: 'string' }]),
      );
      const source = JSON.stringify(
        openapi(
          {
            '/x': {
              post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } }, responses: OK },
            },
          },
          { components: { schemas } },
        ),
      );
      const res = await importing({ format: 'openapi', source }).expect(400);

      const message = JSON.stringify(res.body.message);
      expect(message).not.toContain(process.cwd());
      // "You can increase this limit with the dereference.maxDepth option" is advice to the server's code, not to the caller.
      expect(message).not.toMatch(/maxDepth option/);
      expect(res.body.message).toEqual([
        'source #/components/schemas/S500: is reached through more than 500 $refs in a row (a $ref to a $ref to a $ref …): point each $ref at the schema itself',
      ]);
    });

    it('cuts each selector it quotes in a 400 at 100 characters (200 selectors of 1,000 characters make a 200 KB message)', async () => {
      const source = JSON.stringify({ info, item: [{ name: 'r', request: { method: 'GET', url: 'https://api.example.com/r' } }] });
      const select = Array.from({ length: 200 }, (_, i) => `${'x'.repeat(990)}-${i}`);
      const res = await importing({ format: 'postman', source, select }).expect(400);

      expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
      // At most 10 quoted, each cut at 100 characters, the rest counted.
      expect(res.body.message).toEqual([
        `source select ${Array(10)
          .fill(`"${'x'.repeat(100)}…"`)
          .join(', ')} and 190 more: names no folder or request of the collection: ` + 'write item paths as Folder/Sub folder/Request name',
      ]);
    });

    it('makes names unique without cutting a surrogate pair in half (the ` (2)` suffix leaves a lone surrogate in the name)', async () => {
      // Two operations with the same 100-character name: the second becomes the first 96 code units + " (2)".
      const name = `${'a'.repeat(95)}😀😀b`;
      expect(name).toHaveLength(100);
      const source = JSON.stringify(
        openapi({
          '/a': { get: { summary: name, responses: OK } },
          '/b': { get: { summary: name, responses: OK } },
        }),
      );
      const res = await importing({ format: 'openapi', source, dryRun: false });

      expect(res.status).toBe(200);
      const stored = (await rowsOfBot()) as Array<{ name: string }>;
      for (const { name: storedName } of stored) expect(storedName.isWellFormed()).toBe(true);
      // What the answer names is what was stored.
      expect(res.body.connectors.map(({ connector }: { connector: { name: string } }) => connector.name).sort()).toEqual(
        stored.map(({ name: storedName }) => storedName).sort(),
      );
      const names = res.body.connectors.map(({ connector }: { connector: { name: string } }) => connector.name);
      expect(names).toHaveLength(2);
      for (const unique of names) expect(unique.isWellFormed()).toBe(true);
      expect(new Set(names.map((unique: string) => unique.toLowerCase())).size).toBe(2);
    });

    it('selects cURL commands by `line N`, and refuses another selector saying so (the contract said cURL ignores select)', async () => {
      const source = 'curl https://api.example.com/ping\ncurl https://api.example.com/pong';
      const picked = await importing({ format: 'curl', source, select: ['line 1'] }).expect(200);
      expect(picked.body.connectors.map(({ where, connector }: { where: string; connector: { url: string } }) => [where, connector.url])).toEqual([
        ['line 1', 'https://api.example.com/ping'],
      ]);

      const res = await importing({ format: 'curl', source, select: ['getPing'] });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual([
        'source select "getPing": matches no command: a cURL import selects commands by the line they start on, as `line N` ' +
          '(`line N, URL 2` for one URL of a command); the commands are at line 1, line 2',
      ]);
    });
  });

  describe('the event loop', () => {
    it('reads a source in a worker thread: other requests are answered while 1 MiB of YAML flow collections is parsed', async () => {
      // Shallow groups, under the nesting limit, 1 MiB of them: the yaml package's parser spends seconds on it.
      const line = `k: ${'['.repeat(150)}1${']'.repeat(150)}\n`;
      const source = line.repeat(Math.floor((1024 * 1024) / line.length));
      const order: string[] = [];
      const slow = importing({ format: 'openapi', source }).then((res) => order.push(`import ${res.status}`));
      // Once the import has reached its worker (the request has been read), the app still answers a read.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const read = await sut.http.get(`${base}/list`).set(bearer(token));
      order.push(`list ${read.status}`);
      await slow;
      expect(order[0]).toBe('list 200');
      expect(order[1]).toMatch(/^import (200|400)$/);
    });

    it("holds one caller's imports to one at a time (429 with Retry-After, saying why), so another caller's is read in its turn", async () => {
      // Part of a second of the yaml parser, then a 400 (no OpenAPI document), well within the worker's budget and heap.
      const line = `k: ${'['.repeat(150)}1${']'.repeat(150)}\n`;
      const source = line.repeat(Math.floor((64 * 1024) / line.length));
      const other = await signToken({ ...ALICE, sub: `other-importer-${tenant.bot.uuid}` });
      const answers = await Promise.all([
        importing({ format: 'openapi', source }),
        importing({ format: 'openapi', source }),
        sut.http.post(`${base}/import`).set(bearer(other)).send({ format: 'curl', source: 'curl https://api.example.com/ping' }),
      ]);
      const [busy] = answers.slice(0, 2).filter((res) => res.status === 429);
      expect(
        answers
          .slice(0, 2)
          .map((res) => res.status)
          .sort(),
      ).toEqual([400, 429]);
      expect(busy.headers['retry-after']).toBe('5');
      expect(busy.body.message).toMatch(/^Another import of yours is still being read or answered on this replica: one import per caller at a time/);
      expect(answers[2].status).toBe(200);
    });
  });

  describe('handled', () => {
    it('never reads a file or URL an external $ref names (http to loopback, file:, a path), and says so', async () => {
      for (const ref of ['http://127.0.0.1:9/x.yaml', 'file:///etc/passwd', '/etc/passwd']) {
        const source = JSON.stringify(openapi({ '/x': { get: { operationId: 'x', parameters: [{ $ref: ref }], responses: OK } } }));
        const res = await importing({ format: 'openapi', source });
        expect([200, 400]).toContain(res.status);
        expect(JSON.stringify(res.body)).not.toMatch(/root:x:0:0/);
      }
    });

    it('refuses a YAML alias bomb, `$ref` cycles do not hang, and __proto__ keys pollute nothing', async () => {
      let bomb = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\nx0: &a0 [1,2,3,4,5,6,7,8,9,10]\n';
      for (let i = 1; i < 30; i++)
        bomb += `x${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(',')}]\n`;
      await importing({ format: 'openapi', source: bomb }).expect(400);

      const cycle = openapi(
        {
          '/x': { post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } }, responses: OK } },
        },
        { components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } } },
      );
      await importing({ format: 'openapi', source: JSON.stringify(cycle) }).expect(200);

      const proto =
        '{"info":{"name":"C","schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},"__proto__":{"item":[]},' +
        '"variable":[{"key":"__proto__","value":"x"}],"item":[{"name":"__proto__","request":{"method":"GET","url":"https://api.example.com/a",' +
        '"header":[{"key":"constructor","value":"y"}]}}]}';
      await importing({ format: 'postman', source: proto }).expect(200);
      expect(({} as Record<string, unknown>).item).toBeUndefined();
    });

    it('refuses 1000-deep Postman folders and 10,000 items with a 400 that says what to do', async () => {
      let deep = '{"name":"leaf","request":{"method":"GET","url":"https://api.example.com/x"}}';
      for (let i = 0; i < 1000; i++) deep = `{"name":"f${i}","item":[${deep}]}`;
      const nested = await importing({ format: 'postman', source: `{"info":${JSON.stringify(info)},"item":[${deep}]}` }).expect(400);
      expect(JSON.stringify(nested.body.message)).toMatch(/deeper than 64/);

      const item = Array.from({ length: 10_000 }, (_, i) => ({ name: `r${i}`, request: { method: 'GET', url: `https://api.example.com/${i}` } }));
      const many = await importing({ format: 'postman', source: JSON.stringify({ info, item }) }).expect(400);
      expect(JSON.stringify(many.body.message)).toMatch(/at most 1000/);
    });

    it('refuses NUL, lone surrogates and credentials with unknown fields; exactly 8 MiB of multibyte text is not over', async () => {
      await importing({ format: 'curl', source: 'curl https://api.example.com/\u0000' }).expect(400);
      await importing({ format: 'curl', source: 'curl https://api.example.com/\ud800' }).expect(400);
      const bad = await importing({ format: 'curl', source: 'curl https://api.example.com/x', credentials: { password: 'p', apiKey: 1 } }).expect(400);
      expect(JSON.stringify(bad.body)).not.toContain('"p"');
      // 8 MiB exactly, the last character 3 bytes: not refused for its size.
      const head = "curl https://api.example.com/x -H 'X-A: bcd' # ";
      const exact = head + '€'.repeat((IMPORT_LIMITS.sourceBytes - head.length) / 3);
      expect(Buffer.byteLength(exact)).toBe(IMPORT_LIMITS.sourceBytes);
      const res = await importing({ format: 'curl', source: exact });
      expect(res.status).toBe(200);
      await importing({ format: 'curl', source: `${exact}x` }).expect(400);
    });

    it('makes colliding names unique (case-folded, and past an existing " (2)"), and concurrent imports under one Idempotency-Key create once', async () => {
      const source = ['curl https://api.example.com/a', 'curl https://API.example.com/a', 'curl https://api.example.com/a'].join('\n');
      const planned = await importing({ format: 'curl', source }).expect(200);
      const names = planned.body.connectors.map(({ connector }: { connector: { name: string } }) => connector.name.toLowerCase());
      expect(new Set(names).size).toBe(3);

      const body = { format: 'curl', source: 'curl https://api.example.com/once', dryRun: false };
      const answers = await Promise.all([importing(body, 'same-key-1'), importing(body, 'same-key-1'), importing(body, 'same-key-1')]);
      for (const answer of answers) expect(answer.status).toBeLessThan(500);
      expect(await rowsOfBot()).toHaveLength(1);
    });

    it('exports odd bodies and headers (quotes, newlines, @ first, unicode) as cURL that imports back unchanged, without the secret', async () => {
      const body = '@/etc/passwd\'\n"$HOME" `id` ünï 😀 \\';
      const uuid = await createConnector(
        sut,
        tenant,
        token,
        withBearerAuth({
          name: 'Odd',
          bearerToken: 'odd-secret-5521',
          requestType: 'POST',
          contentType: 'TEXT_PLAIN',
          body,
          headers: [{ header: 'X-Q', value: `it's "q" $x` }],
        }),
      );
      for (const format of ['curl', 'openapi', 'postman']) {
        const exported = await sut.http.get(`${base}/${uuid}/export?format=${format}`).set(bearer(token)).expect(200);
        expect(exported.text).not.toContain('odd-secret-5521');
        if (format === 'curl') expect(exported.text).not.toMatch(/--data-binary|--data '@|-d '@/);
        const back = await importing({ format, source: exported.text }).expect(200);
        expect(back.body.connectors[0].connector).toMatchObject({ body, headers: [{ header: 'X-Q', value: `it's "q" $x` }] });
      }
    });
  });
});

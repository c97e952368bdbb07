import Busboy from 'busboy';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, errorBody, tenantPath } from '../rest-connectors/connector-factories';
import { loopbackTestRuns, withResolver } from './loopback-resolver';

/** A part as busboy read it from what the far side received. */
interface ReadPart {
  name: string;
  filename?: string;
  mimeType?: string;
  value?: string;
  bytes?: Buffer;
}

/** A far side on 127.0.0.2 that reads every multipart request with busboy and answers the number of parts it found. */
async function busboyFarSide() {
  const received: Array<{ contentType: string; parts: ReadPart[] }> = [];
  const server: Server = createServer((req, res) => {
    const parts: ReadPart[] = [];
    const reader = Busboy({ headers: req.headers });
    reader.on('field', (name, value) => parts.push({ name, value }));
    reader.on('file', (name, stream, { filename, mimeType }) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => parts.push({ name, filename, mimeType, bytes: Buffer.concat(chunks) }));
    });
    reader.on('close', () => {
      received.push({ contentType: String(req.headers['content-type']), parts });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ parts: parts.length }));
    });
    reader.on('error', (error: Error) => res.writeHead(400).end(error.message));
    req.pipe(reader);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.2', done));
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('Multipart test runs (MariaDB, a busboy far side on 127.0.0.2)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let side: Awaited<ReturnType<typeof busboyFarSide>>;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ connectorTests: loopbackTestRuns() }), withResolver());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    side = await busboyFarSide();
  });
  afterAll(async () => {
    await side.close();
    await sut.close();
  });

  it('sends a real multipart/form-data body in which the far side finds every part: filled text, a text file, exact binary bytes', async () => {
    const binary = Buffer.concat([Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0d, 0x0a, 0x2d, 0x2d]), randomBytes(300)]);
    const connector = aConnectorBody({
      requestType: 'POST',
      url: `${side.url}/messages`,
      headers: [{ header: 'Content-Type', value: 'multipart/form-data' }],
      contentType: 'MULTIPART_FORM_DATA',
      body: JSON.stringify([
        { name: 'to', value: '{{email}}' },
        { name: 'subject', value: 'Flight {{1}}, \\{{name}}: {{name}}' },
        { name: 'notes', value: 'line one\nline two', filename: 'notes.txt', contentType: 'text/plain' },
        { name: 'photo', base64: binary.toString('base64'), filename: 'photo.png', contentType: 'image/png' },
      ]),
      output: '$.parts',
    });
    const saved = await sut.http.post(tenantPath(tenant)).set(bearer(token)).send(connector).expect(201);

    const res = await sut.http
      .post(`${tenantPath(tenant)}/${saved.body.uuid}/test`)
      .set(bearer(token))
      .send({ variables: { email: 'ana@example.com', name: 'Ana "A" Lima' } })
      .expect(200);

    const [{ contentType, parts }] = side.received;
    expect(contentType).toMatch(/^multipart\/form-data; boundary=\S+$/);
    expect(parts).toEqual([
      { name: 'to', value: 'ana@example.com' },
      { name: 'subject', value: 'Flight {{1}}, {{name}}: Ana "A" Lima' },
      { name: 'notes', filename: 'notes.txt', mimeType: 'text/plain', bytes: Buffer.from('line one\nline two') },
      { name: 'photo', filename: 'photo.png', mimeType: 'image/png', bytes: binary },
    ]);
    expect(res.body).toMatchObject({ outcome: 'SUCCESS', output: { values: [4] }, warnings: [] });
    expect(res.body.request).toEqual({
      method: 'POST',
      url: `${side.url}/messages`,
      headers: [
        { header: 'User-Agent', value: 'bot-platform-connector-test/1.0' },
        { header: 'Content-Type', value: contentType },
      ],
      body: '',
      bodyTruncated: false,
      parts: [
        { name: 'to', filename: null, contentType: null, sizeBytes: 15, value: 'ana@example.com' },
        { name: 'subject', filename: null, contentType: null, sizeBytes: 36, value: 'Flight {{1}}, {{name}}: Ana "A" Lima' },
        { name: 'notes', filename: 'notes.txt', contentType: 'text/plain', sizeBytes: 17, value: 'line one\nline two' },
        { name: 'photo', filename: 'photo.png', contentType: 'image/png', sizeBytes: binary.length },
      ],
    });
  });

  it('refuses a multipart body that is not a JSON array of parts with a 400 naming the part and field', async () => {
    const path = tenantPath(tenant);
    const body = aConnectorBody({ requestType: 'POST', contentType: 'MULTIPART_FORM_DATA', body: '[{"name":"a","value":"1"},{"name":"b","base64":"no!"}]' });

    const res = await sut.http.post(path).set(bearer(token)).send(body).expect(400);

    expect(res.body).toEqual(
      errorBody(
        400,
        'Bad Request',
        ["body[1].base64 is not Base64: write the file's bytes in standard padded Base64 (A-Z a-z 0-9 + /, = at the end), without spaces or line breaks"],
        path,
      ),
    );
  });
});

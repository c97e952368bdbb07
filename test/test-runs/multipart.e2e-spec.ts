import { randomBytes } from 'node:crypto';
import { multipartFarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/multipart-far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, errorBody, tenantPath } from '../rest-connectors/connector-factories';
import { loopbackTestRuns, withResolver } from './loopback-resolver';

describe('Multipart test runs (MariaDB, a busboy far side on 127.0.0.2)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let side: Awaited<ReturnType<typeof multipartFarSide>>;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ connectorTests: loopbackTestRuns() }), withResolver());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    side = await multipartFarSide();
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

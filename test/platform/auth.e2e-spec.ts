import { OrganizationPath } from '@app/domain';
import { RequireScope } from '@app/platform';
import { Controller, Get, Module, Param, Post } from '@nestjs/common';
import { exportJWK, generateKeyPair, KeyLike, SignJWT } from 'jose';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, TEST_JWT_SECRET } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { openRaw, parseRawResponse } from '../support/raw-http';
import { bearer, signToken } from '../support/tokens';

const unsigned = (payload: object, header: object = { alg: 'none', typ: 'JWT' }) =>
  `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;

/** A write route guarded like the connector writes, to prove the platform's scope check. */
@Controller('org/:orgUUID/probe')
class ProbeController {
  @Post()
  @RequireScope('connectors:write')
  write(@Param() path: OrganizationPath) {
    return { ok: path.orgUUID };
  }

  /** A bug of the server's own: the answer must be a bare 500, the log line must carry the cause. */
  @Get('broken')
  broken(): never {
    throw new TypeError('cannot read properties of undefined (reading "bearerToken")');
  }
}
@Module({ controllers: [ProbeController] })
class ProbeModule {}
const PROBE_APP = { ...ENVIRONMENT_APP, name: 'probe', label: 'probe', module: ProbeModule };

describe('Authentication and tenancy (HS256 secret)', () => {
  let sut: TestApp;
  let probe: TestApp;
  let tenant: Tenant;
  let url: string;

  beforeAll(async () => {
    sut = await startTestApp(ENVIRONMENT_APP, mysqlTestConfig());
    probe = await startTestApp(PROBE_APP, mysqlTestConfig({ logLevel: 'info' }));
    tenant = await seedTenant(sut.dataSource);
    url = `/platform-environment/org/${tenant.organization.uuid}/environments`;
  });
  afterAll(async () => {
    await sut.close();
    await probe.close();
  });

  it('answers 401 with WWW-Authenticate: Bearer when no token is sent', async () => {
    const res = await sut.http.get(url).expect(401);

    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Authorization: Bearer <token> is required',
      path: url,
      timestamp: expect.any(String),
      requestId: res.headers['x-request-id'],
    });
  });

  it.each([
    ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer without token', 'Bearer'],
  ])('answers 401 for %s', async (_, header) => {
    const res = await sut.http.get(url).set('Authorization', header).expect(401);

    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('rejects a token signed with another secret', async () => {
    const token = await signToken({}, { secret: 'another-secret-another-secret-another-secret' });

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(res.body.message).toBe('The token is invalid');
  });

  it('rejects an expired token', async () => {
    const token = await signToken({}, { expiresAt: Math.floor(Date.now() / 1000) - 60 });

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.body.message).toBe('The token has expired');
  });

  it.each(['iat', 'nbf'])('rejects a token whose %s is more than 60 s in the future', async (claim) => {
    const inTwoMinutes = Math.floor(Date.now() / 1000) + 120;
    const token = await new SignJWT({ orgs: ['*'], [claim]: inTwoMinutes })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(res.body.message).toBe(`The token's ${claim} claim is not accepted`);
  });

  it('rejects alg: none', async () => {
    const token = unsigned({ sub: 'mallory', orgs: ['*'], exp: Math.floor(Date.now() / 1000) + 600 });

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.body.message).toBe('The token is signed with an algorithm that is not accepted');
  });

  it('rejects a token without exp', async () => {
    const token = await new SignJWT({ orgs: ['*'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('user-1').sign(new TextEncoder().encode(TEST_JWT_SECRET));

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.body.message).toBe("The token's exp claim is not accepted");
  });

  it('rejects a token without sub', async () => {
    const token = await new SignJWT({ orgs: ['*'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.body.message).toBe('The token has no sub claim');
  });

  it.each([
    ['sub', { sub: 's'.repeat(256) }, 255],
    ['username', { username: 'u'.repeat(256) }, 255],
    ['picture', { picture: `https://img.example.com/${'p'.repeat(2030)}` }, 2048],
  ])('rejects a %s claim longer than the platform stores', async (claim, claims, limit) => {
    const token = await signToken(claims);

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.body.message).toBe(`The token's ${claim} claim is longer than ${limit} characters`);
  });

  it('is 403 for an organization outside the token orgs', async () => {
    const token = await signToken({ orgs: ['0c2b6a57-7f0e-4f43-9e5e-3cb1d2a8a1aa'] });

    const res = await sut.http.get(url).set(bearer(token)).expect(403);

    expect(res.body.message).toBe(`Not allowed to access organization ${tenant.organization.uuid}`);
  });

  it('is 403 for a token without orgs', async () => {
    const token = await signToken({ orgs: undefined });

    await sut.http.get(url).set(bearer(token)).expect(403);
  });

  it('lets a token with the organization, in any case, read it', async () => {
    const token = await signToken({ orgs: [tenant.organization.uuid.toUpperCase()] });

    await sut.http.get(url).set(bearer(token)).expect(200);
  });

  it('lets support staff (orgs ["*"]) read any organization', async () => {
    const token = await signToken({ orgs: ['*'] });

    await sut.http.get(url).set(bearer(token)).expect(200);
  });

  it('checks the path ids (400) before the organization (403)', async () => {
    const token = await signToken({ orgs: [tenant.organization.uuid] });

    await sut.http.get('/platform-environment/org/nope/environments').set(bearer(token)).expect(400);
  });

  it('answers an unexpected error with a bare 500 and logs its cause with the request id', async () => {
    const token = await signToken({});

    const res = await probe.http.get(`/probe/org/${tenant.organization.uuid}/probe/broken`).set(bearer(token)).expect(500);

    expect(res.body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error',
      path: `/probe/org/${tenant.organization.uuid}/probe/broken`,
      timestamp: expect.any(String),
      requestId: res.headers['x-request-id'],
    });
    expect(probe.logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'Request failed with 500',
        requestId: res.headers['x-request-id'],
        error: expect.objectContaining({ type: 'TypeError', message: expect.stringContaining('cannot read properties') }),
      }),
    );
  });

  describe('write scope', () => {
    const probeUrl = () => `/probe/org/${tenant.organization.uuid}/probe`;

    it('is 403 for a write without connectors:write', async () => {
      const token = await signToken({ scope: 'connectors:read profile' });

      const res = await probe.http.post(probeUrl()).set(bearer(token)).expect(403);

      expect(res.body.message).toBe('This operation needs the connectors:write scope');
    });

    it('lets a write with connectors:write among other scopes through', async () => {
      const token = await signToken({ scope: 'profile connectors:write' });

      await probe.http.post(probeUrl()).set(bearer(token)).expect(201);
    });
  });
});

describe('A body without a plausible bearer token', () => {
  let sut: TestApp;
  let url: string;
  let port: number;

  beforeAll(async () => {
    sut = await startTestApp(PROBE_APP, mysqlTestConfig());
    await sut.app.listen(0, '127.0.0.1');
    port = (sut.app.getHttpServer().address() as AddressInfo).port;
    url = `/probe/org/${(await seedTenant(sut.dataSource)).organization.uuid}/probe`;
  });
  afterAll(() => sut.close());

  it.each([
    ['no Authorization header', '', 'Bearer', 'Authorization: Bearer <token> is required'],
    ['a non-bearer scheme', 'Authorization: Basic dXNlcjpwYXNz\r\n', 'Bearer', 'The Authorization header must be "Bearer <token>"'],
    ['a token not shaped like a JWT', 'Authorization: Bearer not-a-jwt\r\n', 'Bearer error="invalid_token"', 'The token is invalid'],
    ['a token longer than any JWT we accept', `Authorization: Bearer a.${'b'.repeat(8_192)}.c\r\n`, 'Bearer error="invalid_token"', 'The token is invalid'],
  ])('is answered 401 with %s before its body is read, and the connection closed', async (_, authorization, challenge, message) => {
    const { socket, closed } = await openRaw(port);
    // 256 KiB announced, 1 KiB sent: were the body read, the server would wait for the rest.
    socket.write(`POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}Content-Type: application/json\r\nContent-Length: 262144\r\n\r\n`);
    socket.write(`{"name":"${'x'.repeat(1_000)}`);

    const answer = parseRawResponse(await closed);

    expect(answer.status).toBe(401);
    expect(answer.headers).toMatchObject({ 'www-authenticate': challenge, connection: 'close' });
    expect(JSON.parse(answer.body.slice(answer.body.indexOf('{'), answer.body.lastIndexOf('}') + 1))).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message,
      path: url,
      timestamp: expect.any(String),
      requestId: answer.headers['x-request-id'],
    });
  });

  it.each(['/probe/docs', '/probe/docs-json', '/probe/docsX', '/metrics', '/health/live', '/HEALTH/Ready/'])(
    'parses no body sent without a token to %s: a POST there needs a token like any other',
    async (path) => {
      const res = await sut.http.post(path).set('Content-Type', 'application/json').send('{"not": json');

      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Authorization: Bearer <token> is required');
    },
  );

  it('parses no body of a read of the operations endpoints or the docs', async () => {
    await sut.http.get('/health/live').set('Content-Type', 'application/json').send('{"not": json').expect(200);
  });

  it('answers 413 to a body announced over 256 KiB at once, without reading it, even with a plausible token', async () => {
    const { socket, closed } = await openRaw(port);
    socket.write(
      `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer a.b.c\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n`,
    );
    socket.write('{"name":"x');

    const answer = parseRawResponse(await closed);

    expect(answer.status).toBe(413);
    expect(answer.headers).toMatchObject({ connection: 'close' });
  });

  it('answers exactly what the guard answers a request without a body', async () => {
    const withBody = await sut.http.post(url).set('Authorization', 'Bearer not-a-jwt').send({ name: 'x' }).expect(401);
    const withoutBody = await sut.http.post(url).set('Authorization', 'Bearer not-a-jwt').expect(401);

    expect(withBody.headers['www-authenticate']).toBe(withoutBody.headers['www-authenticate']);
    expect({ ...withBody.body, timestamp: 0, requestId: 0 }).toEqual({ ...withoutBody.body, timestamp: 0, requestId: 0 });
  });

  it('lets a body with a plausible token through to the guard and the controller', async () => {
    await sut.http
      .post(url)
      .set(bearer(await signToken({ scope: 'connectors:write' })))
      .send({ any: 'body' })
      .expect(201);
  });
});

describe('Authentication with iss and aud configured', () => {
  let sut: TestApp;
  let url: string;
  const claims = (iss: string, aud: string) =>
    new SignJWT({ orgs: ['*'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setIssuer(iss)
      .setAudience(aud)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));

  beforeAll(async () => {
    sut = await startTestApp(
      ENVIRONMENT_APP,
      mysqlTestConfig({
        auth: { mode: 'secret', secret: TEST_JWT_SECRET, issuer: 'https://id.example.com', audience: 'platform-api' },
      }),
    );
    const tenant = await seedTenant(sut.dataSource);
    url = `/platform-environment/org/${tenant.organization.uuid}/environments`;
  });
  afterAll(() => sut.close());

  it('accepts the configured issuer and audience', async () => {
    await sut.http
      .get(url)
      .set(bearer(await claims('https://id.example.com', 'platform-api')))
      .expect(200);
  });

  it('rejects another issuer', async () => {
    const res = await sut.http
      .get(url)
      .set(bearer(await claims('https://evil.example.com', 'platform-api')))
      .expect(401);

    expect(res.body.message).toBe("The token's iss claim is not accepted");
  });

  it('rejects another audience', async () => {
    const res = await sut.http
      .get(url)
      .set(bearer(await claims('https://id.example.com', 'other')))
      .expect(401);

    expect(res.body.message).toBe("The token's aud claim is not accepted");
  });
});

describe('Authentication against a JWKS', () => {
  let sut: TestApp;
  let jwks: Server;
  let url: string;
  let privateKey: KeyLike;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((done) => jwks.listen(0, '127.0.0.1', done));
    const { port } = jwks.address() as AddressInfo;
    sut = await startTestApp(ENVIRONMENT_APP, mysqlTestConfig({ auth: { mode: 'jwks', jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` } }));
    const tenant = await seedTenant(sut.dataSource);
    url = `/platform-environment/org/${tenant.organization.uuid}/environments`;
  });
  afterAll(async () => {
    await sut.close();
    await new Promise((done) => jwks.close(done));
  });

  it('accepts an RS256 token signed by a key of the JWKS', async () => {
    const token = await new SignJWT({ orgs: ['*'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(privateKey);

    await sut.http.get(url).set(bearer(token)).expect(200);
  });

  it('rejects an HS256 token, whatever secret signed it', async () => {
    const token = await signToken({ orgs: ['*'] });

    const res = await sut.http.get(url).set(bearer(token)).expect(401);

    expect(res.body.message).toBe('The token is signed with an algorithm that is not accepted');
  });
});

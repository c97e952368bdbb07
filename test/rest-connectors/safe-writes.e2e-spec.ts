import { RestConnector } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer } from '../support/tokens';
import { aConnectorBody, ALICE, createConnector, withBasicAuth, withPasswordGrant, readStoredSecrets } from './connector-factories';
import { startTenantApp } from '../support/tenant-app';

describe('Rest connectors: safe writes (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  const storedSecrets = (uuid: string) => readStoredSecrets(sut, uuid);

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig(), ALICE)));
  afterAll(() => sut.close());

  describe('HTTP edge', () => {
    it('is 415 for a body that is not application/json', async () => {
      await sut.http.post(base).set(bearer(token)).set('Content-Type', 'text/plain').send('name=x').expect(415);
    });
  });

  describe('secrets at rest', () => {
    it('stores secrets encrypted, never in clear, on create and on update', async () => {
      const uuid = await createConnector(sut, tenant, token, withPasswordGrant({ authPassword: 'clear-password-123' }));
      const created = await storedSecrets(uuid);
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBasicAuth({ basicToken: 'Y2xlYXI6YmFzaWMtNDU2' /* clear:basic-456 */ }))
        .expect(200);
      const updated = await storedSecrets(uuid);

      expect(created.authPassword).toEqual(expect.any(String));
      expect(created.authPassword).not.toContain('clear-password-123');
      expect(created.authPassword).not.toContain('<PASSWORD>');
      expect(updated.basicToken).toEqual(expect.any(String));
      expect(updated.basicToken).not.toContain('Y2xlYXI6YmFzaWMtNDU2');
      expect(updated.authPassword).toBeNull();
    });
  });

  describe('Idempotency-Key on create', () => {
    it('returns the first response for a retry with the same key and body, creating nothing more', async () => {
      const key = `retry-${Date.now()}-${Math.random()}`;
      const body = aConnectorBody();

      const first = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(201);
      const retry = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(201);

      expect(retry.body).toEqual(first.body);
      const count = await sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid, name: body.name as string });
      expect(count).toBe(1);
    });

    it('is 422 for the same key with another body', async () => {
      const key = `reuse-${Date.now()}-${Math.random()}`;

      await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(aConnectorBody()).expect(201);
      await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(aConnectorBody()).expect(422);
    });
  });
});

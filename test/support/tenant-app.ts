import { AppConfig, PlatformAppDefinition } from '@app/platform';
import { tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from './fixtures';
import { startTestApp, TestApp } from './test-app';
import { signToken, TokenClaims } from './tokens';

export interface TenantApp {
  sut: TestApp;
  /** An organization, environment and bot of the suite's own. */
  tenant: Tenant;
  /** A token of `claims`. */
  token: string;
  /** The tenant's rest-connectors path. */
  base: string;
}

/**
 * The setup most connector suites share: the app on the real module and database, a tenant of its own, a caller's
 * token and the tenant's connectors path. `beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(…)))`.
 */
export async function startTenantApp(definition: PlatformAppDefinition, config: AppConfig, claims: TokenClaims): Promise<TenantApp> {
  const sut = await startTestApp(definition, config);
  const tenant = await seedTenant(sut.dataSource);
  return { sut, tenant, token: await signToken(claims), base: tenantPath(tenant) };
}

import { ShutdownState } from '@app/platform';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

describe('Metrics and probes (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ rateLimitPerMinute: 5 }));
    tenant = await seedTenant(sut.dataSource);
  });
  afterAll(() => sut.close());

  it('serves Prometheus metrics at the root without a token: request durations by method, route template and status', async () => {
    const token = await signToken({});
    const base = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;
    await sut.http.get(base).set(bearer(token)).expect(200);
    await sut.http.get(`${base}/${tenant.bot.uuid}`).set(bearer(token)).expect(200);
    await sut.http.get(`${base}/nope`).set(bearer(token)).expect(400);

    const res = await sut.http.get('/metrics').expect(200);

    expect(res.headers['content-type']).toContain('text/plain');
    const line = (route: string, status: number) =>
      new RegExp(
        `http_request_duration_seconds_count\\{app="platform-bot-admin",method="GET",route="${route.replace(/[/:]/g, '\\$&')}",status_code="${status}"\\} 1`,
      );
    expect(res.text).toMatch(line('/platform-bot-admin/org/:orgUUID/env/:envUUID/bots-admin', 200));
    expect(res.text).toMatch(line('/platform-bot-admin/org/:orgUUID/env/:envUUID/bots-admin/:botUUID', 200));
    expect(res.text).toMatch(line('/platform-bot-admin/org/:orgUUID/env/:envUUID/bots-admin/:botUUID', 400));
    expect(res.text).not.toContain(tenant.bot.uuid);
    expect(res.text).toContain('http_request_duration_seconds_bucket{le="0.005",app="platform-bot-admin"');
  });

  it('exposes process and database pool figures', async () => {
    const res = await sut.http.get('/metrics').expect(200);

    expect(res.text).toMatch(/^process_cpu_user_seconds_total\{app="platform-bot-admin"\} /m);
    expect(res.text).toMatch(/^nodejs_heap_size_used_bytes\{app="platform-bot-admin"\} /m);
    expect(res.text).toMatch(/^db_pool_connections\{pool="primary",app="platform-bot-admin"\} [1-9]/m);
    expect(res.text).toMatch(/^db_pool_idle_connections\{pool="primary",app="platform-bot-admin"\} \d+/m);
    expect(res.text).toMatch(/^db_pool_waiting_requests\{pool="primary",app="platform-bot-admin"\} 0/m);
  });

  it('never rate-limits the probes or the metrics', async () => {
    for (let i = 0; i < 8; i++) {
      await sut.http.get('/metrics').expect(200);
      await sut.http.get('/health/ready').expect(200);
    }
  });

  it('turns readiness 503 and asks clients to close connections once draining, staying live', async () => {
    const state = sut.app.get(ShutdownState);
    state.draining = true;
    try {
      const ready = await sut.http.get('/health/ready').expect(503);
      const live = await sut.http.get('/health/live').expect(200);

      expect(ready.body).toMatchObject({ statusCode: 503, message: 'Shutting down' });
      expect(live.headers.connection).toBe('close');
    } finally {
      state.draining = false;
    }
  });
});

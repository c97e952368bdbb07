import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadAppConfig, PLATFORM_APPS } from '@app/platform';
import { envExampleVariables, Json, ROOT } from './deploy-support';

const COMPOSE_FILE = join(ROOT, 'docker', 'docker-compose.yml');
const APPS = Object.values(PLATFORM_APPS);

/**
 * The file as compose reads it with `env` in its environment: `${NAME:-default}` takes NAME's value, else the
 * default (the only interpolation the file uses).
 */
function readCompose(env: Record<string, string> = {}): Json {
  const text = readFileSync(COMPOSE_FILE, 'utf8').replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, fallback: string) => env[name] || fallback);
  const documents = parseAllDocuments(text, { merge: true });
  if (!Array.isArray(documents) || documents.length !== 1) throw new Error('docker-compose.yml must hold one document');
  const [document] = documents;
  if (document.errors.length > 0) throw new Error(document.errors.map(String).join('; '));
  return document.toJS({ maxAliasCount: 100 });
}

/** Compose `depends_on` in its long form; the short (list) form means service_started. */
function dependsOn(service: Json): Record<string, string> {
  const value = service.depends_on ?? {};
  if (Array.isArray(value)) return Object.fromEntries(value.map((name: string) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(value as Record<string, Json>).map(([name, v]) => [name, v?.condition ?? 'service_started']));
}

function containerPortsPublished(service: Json): number[] {
  return (service.ports ?? []).map((p: Json) => {
    if (typeof p === 'object') return Number(p.target);
    const parts = String(p).split('/')[0].split(':');
    return Number(parts[parts.length - 1]);
  });
}

describe('docker/docker-compose.yml', () => {
  const compose = readCompose();
  const services = compose.services as Record<string, Json>;
  const migration = Object.entries(services).find(([, s]) => JSON.stringify(s.command ?? '').includes('migrate'));

  it('has MariaDB writing a binary log, with a healthcheck, a migration service and the three apps', () => {
    expect(services.mariadb.image).toMatch(/^mariadb:11\./);
    expect(services.mariadb.command).toEqual(expect.arrayContaining([expect.stringMatching(/^--log-bin/), '--binlog-format=ROW']));
    expect(services.mariadb.healthcheck?.test?.length).toBeGreaterThan(0);
    expect(services.mariadb.healthcheck?.disable).not.toBe(true);
    expect(migration).toBeDefined();
    for (const app of APPS) expect(services[app.name]).toBeDefined();
  });

  it('has an optional GTID replica of the primary (profile replica) that the apps read once DATABASE_READ_URLS names it', () => {
    const replica = services['mariadb-replica'];
    expect(replica.profiles).toEqual(['replica']);
    expect(replica.image).toBe(services.mariadb.image);
    expect(replica.environment).toMatchObject({
      MARIADB_MASTER_HOST: 'mariadb',
      MARIADB_REPLICATION_USER: services.mariadb.environment.MARIADB_REPLICATION_USER,
    });
    expect(replica.command).toContain('--server-id=2');
    expect(dependsOn(replica)).toEqual({ mariadb: 'service_healthy' });
    expect(replica.ports).toBeUndefined();
    const readUrls = 'mysql://platform:dev-only-password@mariadb-replica:3306/platform';
    expect(readFileSync(COMPOSE_FILE, 'utf8')).toContain(`DATABASE_READ_URLS=${readUrls}`);
    const withReplica = readCompose({ DATABASE_READ_URLS: readUrls }).services as Record<string, Json>;
    for (const app of APPS) expect(loadAppConfig(withReplica[app.name].environment, app.defaultPort).database).toMatchObject({ readUrls: [readUrls] });
  });

  it('runs the CLI migrate once MariaDB is healthy, from an image of docker/Dockerfile', () => {
    const [, service] = migration as [string, Json];
    expect(service.command).toEqual(['node', 'dist/tools/cli/main.js', 'migrate']);
    expect(dependsOn(service)).toEqual({ mariadb: 'service_healthy' });
    expect(service.restart ?? 'no').toBe('no');
    expect(resolve(ROOT, 'docker', service.build.context)).toBe(ROOT);
    expect(service.build.dockerfile).toBe('docker/Dockerfile');
    expect(APPS.map((a) => a.name)).toContain(service.build.args.APP);
  });

  it.each(APPS.map((a) => [a.name, a] as const))('%s starts after the migration completed successfully, from its own image', (_, app) => {
    const service = services[app.name];
    const [migrationName] = migration as [string, Json];
    expect(dependsOn(service)).toEqual({ [migrationName]: 'service_completed_successfully' });
    expect(resolve(ROOT, 'docker', service.build.context)).toBe(ROOT);
    expect(service.build.dockerfile).toBe('docker/Dockerfile');
    expect(service.build.args).toEqual({ APP: app.name });
    expect(service.command).toBeUndefined(); // the image's CMD
    expect(service.healthcheck?.test?.join(' ')).toContain(`:${app.defaultPort}/health/ready`);
    expect(service.read_only).toBe(true);
    expect(service.cap_drop).toEqual(['ALL']);
    expect(parseDuration(service.stop_grace_period)).toBeGreaterThan(10);
  });

  it('publishes transactional-service and bot-admin, and never the environment app', () => {
    expect(services.environment.ports).toBeUndefined();
    expect((services.environment.expose ?? []).map(String)).toEqual([String(PLATFORM_APPS.environment.defaultPort)]);
    expect(services.environment.network_mode).toBeUndefined(); // network_mode: host would publish it too
    for (const app of [PLATFORM_APPS.transactionalService, PLATFORM_APPS.botAdmin]) {
      expect(containerPortsPublished(services[app.name])).toEqual([app.defaultPort]);
      // On this machine's loopback only: the file's secrets are placeholders anyone could use.
      expect(services[app.name].ports).toEqual([`127.0.0.1:${app.defaultPort}:${app.defaultPort}`]);
    }
    expect(services.mariadb.ports).toBeUndefined();
    expect(services.redis.ports).toBeUndefined();
    expect(services.nats.ports).toBeUndefined();
  });

  it('has NATS with JetStream on, its store in a named volume and a healthcheck on its monitoring port', () => {
    const nats = services.nats;
    expect(nats.image).toMatch(/^nats:2\.\d+-alpine$/);
    const command = nats.command as string[];
    const option = (name: string) => {
      expect(command).toContain(name);
      return command[command.indexOf(name) + 1];
    };
    expect(command).toContain('-js');
    const storeDir = option('-sd');
    const mounts = (nats.volumes as Json[]).map((v) => (typeof v === 'string' ? { source: v.split(':')[0], target: v.split(':')[1] } : v));
    const store = mounts.find((m) => m.target === storeDir);
    expect(store).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(store?.source); // a named volume: the stream outlives the container
    const monitoringPort = option('-m');
    expect(nats.healthcheck?.test).toEqual(['CMD', 'wget', '-q', '--spider', `http://127.0.0.1:${monitoringPort}/healthz`]);
    expect(nats.healthcheck?.disable).not.toBe(true);
  });

  it.each(APPS.map((a) => [a.name, a] as const))('points %s at the NATS service for change events, without waiting for it', (_, app) => {
    const config = loadAppConfig(services[app.name].environment, app.defaultPort);
    expect(config.changeEvents).toEqual({ natsUrl: 'nats://nats:4222', stream: 'CONNECTOR_EVENTS', retentionDays: 7, maxPublishAttempts: 5 });
    const url = new URL(config.changeEvents.natsUrl as string);
    expect(services[url.hostname]?.command).toContain('-js');
    expect(url.port).toBe('4222');
    // Writes are never refused while NATS is down: the app starts without it and its outbox drains later.
    expect(Object.keys(dependsOn(services[app.name]))).not.toContain('nats');
  });

  it.each(APPS.map((a) => [a.name, a] as const))('configures %s through every variable of .env.example, valid for production', (_, app) => {
    const environment = services[app.name].environment as Record<string, string>;
    expect(Object.keys(environment).sort()).toEqual(envExampleVariables().sort());
    expect(environment.PORT).toBe(String(app.defaultPort));
    const config = loadAppConfig(environment, app.defaultPort);
    expect(config.nodeEnv).toBe('production');
    expect(config.database).toEqual(expect.objectContaining({ type: 'mysql', url: expect.stringContaining('@mariadb:3306/') }));
    // The replicas count the rate limits in the compose file's Redis.
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(services.redis.image).toMatch(/^redis:7/);
  });

  it('gives the migration the same configuration (without PORT), and says its secrets are development-only', () => {
    const [, service] = migration as [string, Json];
    const { PORT: _port, ...shared } = services[PLATFORM_APPS.transactionalService.name].environment;
    expect(service.environment).toEqual(shared);
    expect(readFileSync(COMPOSE_FILE, 'utf8')).toMatch(/DEVELOPMENT ONLY/);
  });
});

function parseDuration(value: string | undefined): number {
  const m = /^(\d+)(s|m)$/.exec(value ?? '');
  if (!m) return 0;
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

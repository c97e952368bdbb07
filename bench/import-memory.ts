/**
 * `npm run bench:import-memory -- [--synthetic] [<file>:<openapi|postman|curl>[:<select.json>] …]`: the peak RSS of
 * the built transactional service (`npm run build`), started as the image starts it, while it imports each source
 * (a dry run, so the whole read, plan and answer, and nothing stored). Each source gets a fresh process on a SQLite
 * database of its own, so each peak is that import's alone. `--synthetic` adds the largest sources an import takes:
 * an OpenAPI document and a Postman collection of 8 MiB and 1,000 operations (test/import-export/large-sources.ts).
 * Real documents are not committed: pass their files (docs/performance.md, "Imports", names the ones measured).
 */
import { buildDataSourceOptions, IMPORT_LIMITS, PlatformDataSource } from '@app/domain';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { tenantPath } from '../test/rest-connectors/connector-factories';
import { seedTenant } from '../test/support/fixtures';
import { largeCollection, largeOpenApi } from '../test/import-export/large-sources';
import { appEnvUnset, benchToken, ensureBuilt, memoryBreakdown, rssKb, runBench, Server, startApp } from './processes';

interface Source {
  label: string;
  format: string;
  source: string;
  select?: string[];
}

function sourcesOf(argv: string[]): Source[] {
  const sources: Source[] = [];
  for (const arg of argv) {
    if (arg === '--synthetic') {
      const bytes = IMPORT_LIMITS.sourceBytes;
      sources.push({ label: 'synthetic OpenAPI, 8 MiB, 1,000 operations', format: 'openapi', source: largeOpenApi({ operations: 1000, bytes }) });
      sources.push({ label: 'synthetic Postman, 8 MiB, 1,000 requests', format: 'postman', source: largeCollection({ requests: 1000, bytes }) });
      continue;
    }
    const [file, format, select] = arg.split(':');
    const selected = select === undefined ? undefined : (JSON.parse(readFileSync(select, 'utf8')) as string[]);
    sources.push({
      label: `${basename(file)}${selected ? ` (${selected.length} selected)` : ''}`,
      format,
      source: readFileSync(file, 'utf8'),
      select: selected,
    });
  }
  return sources;
}

let app: Server | undefined;

async function measure({ label, format, source, select }: Source): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'import-memory-'));
  try {
    app = await startApp('transactional-service', `sqlite:${join(dir, 'platform.sqlite')}`);
    const dataSource = await new PlatformDataSource(
      buildDataSourceOptions({ type: 'sqlite', path: join(dir, 'platform.sqlite') }, { migrationsRun: false }),
    ).initialize();
    const tenant = await seedTenant(dataSource);
    await dataSource.destroy();
    const token = await benchToken(tenant.organization.uuid, 1);
    const pid = app.child.pid!;
    const atRestKb = rssKb(pid, 'VmRSS');
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${app.port}${tenantPath(tenant)}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format, source, ...(select && { select }) }),
    });
    const answer = (await res.json()) as { connectors?: unknown[]; message?: unknown };
    const ms = Date.now() - started;
    const peakKb = rssKb(pid, 'VmHWM');
    const after = memoryBreakdown(pid);
    const outcome = res.status === 200 ? `${answer.connectors?.length} connectors` : `${res.status} ${JSON.stringify(answer.message).slice(0, 200)}`;
    const mb = (kb: number) => Math.round(kb / 1024);
    console.log(
      `| ${label} | ${(Buffer.byteLength(source) / 1024 / 1024).toFixed(1)} MiB | ${outcome} | ${(ms / 1000).toFixed(1)} s | ${mb(atRestKb)} MB | ${mb(peakKb)} MB | ` +
        `${after ? `${after.threads} threads, ${after.arenas} arenas ${after.arenasMb} MB` : '-'} |`,
    );
  } finally {
    await app?.stop();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(
  async () => {
    ensureBuilt(['transactional-service'], false, console.log);
    const unset = appEnvUnset();
    console.log(unset.length ? `the app starts without the image's ${unset.join(', ')} (BENCH_APP_UNSET)` : "the app starts with the image's environment");
    console.log('| source | size | answer (dry run) | time | RSS at rest | peak RSS | after: threads, malloc arenas |\n|---|---|---|---|---|---|---|');
    for (const source of sourcesOf(process.argv.slice(2))) await measure(source);
  },
  async () => app?.stop(),
);

import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { PLATFORM_APPS } from '@app/platform';
import { APP_START_TIMEOUT_MS, startApp } from '../support/app-process';
import { committedAsyncApiDocumentOf, linkedAsyncApiDocument } from '../support/asyncapi';
import { anEnvironment, anOrganization, aBot } from '../support/fixtures';
import {
  BASE_DIR,
  configMapData,
  findStage,
  Json,
  parseCopy,
  podSpec,
  readDockerfile,
  renderKustomization,
  ROOT,
  stageChain,
  workdirOf,
} from './deploy-support';

/**
 * The image's runtime stage, rebuilt on disk: a production-only `npm ci` (as the prod-deps stage does)
 * and the built bundles, copied where the Dockerfile's runtime stage puts them, in a directory outside
 * the repository (so `require` can only find the production node_modules). Each app is then started
 * with the image's CMD and the base manifests' environment, and the migration job's and the import template's
 * commands are run.
 */
const APPS = Object.values(PLATFORM_APPS);
/**
 * The production install compiles better-sqlite3 when no prebuilt binary is fetched: more than three minutes on a
 * 2-core machine kept busy by another load.
 */
const INSTALL_TIMEOUT_MS = 600_000;
const JWT_SECRET = 'runtime-image-test-secret-0123456789abcdef';
const SECRETS_KEY = Buffer.alloc(32, 9).toString('base64');

interface Step {
  /** Where the file comes from: the production install, or a path of the repository (with ${APP}; a folder when it ends with /). */
  source: { install: true } | { repo: string };
  /** Relative to the runtime stage's WORKDIR. */
  destination: string;
}

/** The runtime stage's COPY instructions, mapped onto this checkout. */
function runtimeLayout(): { steps: Step[]; cmd: string[] } {
  const dockerfile = readDockerfile();
  const final = dockerfile.stages[dockerfile.stages.length - 1];
  const workdir = workdirOf(final, dockerfile);
  const steps: Step[] = [];
  for (const instruction of final.instructions.filter((i) => i.keyword === 'COPY')) {
    const copy = parseCopy(instruction.args);
    const destinationDir = copy.destination.endsWith('/') || copy.destination === '.' || copy.destination === './';
    for (const source of copy.sources) {
      // A folder's contents go into the destination folder itself (COPY's rule for a directory source).
      const into = source.endsWith('/') ? '' : (source.split('/').pop() as string);
      const destination = relative(workdir, resolve(workdir, destinationDir ? join(copy.destination, into) : copy.destination));
      if (!copy.from) {
        steps.push({ source: { repo: source }, destination });
        continue;
      }
      const stage = findStage(dockerfile, copy.from);
      const stageDir = workdirOf(stage, dockerfile);
      const inStage = relative(stageDir, source) + (source.endsWith('/') ? '/' : '');
      if (inStage.startsWith('..')) throw new Error(`Dockerfile line ${instruction.line}: ${source} is outside ${stage.name}'s WORKDIR`);
      const installs = stageChain(dockerfile, stage).some((s) => s.instructions.some((i) => /npm ci\b.*--omit=dev/.test(i.args)));
      if (inStage === 'node_modules' && installs) steps.push({ source: { install: true }, destination });
      else steps.push({ source: { repo: inStage }, destination });
    }
  }
  const cmds = final.instructions.filter((i) => i.keyword === 'CMD');
  return { steps, cmd: JSON.parse(cmds[cmds.length - 1].args) as string[] };
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<{ code: number | null; output: string }>((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${command} ${args.join(' ')} did not finish in ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Everything under dir (node_modules excluded), to show the apps write nothing into the image's files. */
function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules') return [];
    return statSync(path).isDirectory() ? listFiles(path, base) : [relative(base, path)];
  });
}

describe('the runtime image, rebuilt on disk', () => {
  const work = mkdtempSync(join(tmpdir(), 'platform-image-'));
  const app = join(work, 'app'); // the image's WORKDIR
  const data = join(work, 'data'); // stands in for the database server
  const layout = runtimeLayout();
  const resources = renderKustomization(BASE_DIR).resources;
  const config = configMapData(resources, 'platform-config');
  const secrets = { DATABASE_URL: `sqlite:${join(data, 'platform.sqlite')}`, AUTH_JWT_SECRET: JWT_SECRET, SECRETS_KEY };

  /** A container's env from the base manifests: ConfigMap values, test secrets, nothing of this process. */
  function containerEnv(container: Json): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LOG_LEVEL: 'warn' };
    for (const variable of container.env as Json[]) {
      const cm = variable.valueFrom?.configMapKeyRef;
      const secret = variable.valueFrom?.secretKeyRef;
      const value = cm ? config[cm.key] : secret ? secrets[secret.key as keyof typeof secrets] : variable.value;
      if (value !== undefined) env[variable.name] = String(value);
    }
    env.LOG_LEVEL = 'warn';
    return env;
  }

  function place(appName: string): void {
    for (const step of layout.steps) {
      if ('install' in step.source) continue;
      const source = join(ROOT, step.source.repo.replace(/\$\{?APP\}?/g, appName));
      if (!existsSync(source)) throw new Error(`${relative(ROOT, source)} is missing: npm test builds (npm run build) before running jest`);
      if (step.source.repo.endsWith('/')) {
        // A folder: its files, replacing what another app's placing left there.
        rmSync(join(app, step.destination), { recursive: true, force: true });
        mkdirSync(join(app, step.destination), { recursive: true });
        for (const file of readdirSync(source)) copyFileSync(join(source, file), join(app, step.destination, file));
        continue;
      }
      mkdirSync(dirname(join(app, step.destination)), { recursive: true });
      copyFileSync(source, join(app, step.destination));
    }
  }

  beforeAll(async () => {
    // Outside the repository, with no node_modules above it: the bundles can only find the install below.
    expect(work.startsWith(ROOT)).toBe(false);
    for (let dir = dirname(work); ; dir = dirname(dir)) {
      expect({ dir, nodeModules: existsSync(join(dir, 'node_modules')) }).toEqual({ dir, nodeModules: false });
      if (dir === dirname(dir)) break;
    }
    for (const a of APPS) place(a.name); // fails fast when dist is missing, before the long install
    const deps = join(work, 'deps');
    mkdirSync(deps);
    mkdirSync(data);
    copyFileSync(join(ROOT, 'package.json'), join(deps, 'package.json'));
    copyFileSync(join(ROOT, 'package-lock.json'), join(deps, 'package-lock.json'));
    const { NODE_PATH: _ignored, ...env } = process.env;
    const install = await run('npm', ['ci', '--omit=dev', '--ignore-scripts=false', '--no-audit', '--no-fund'], {
      cwd: deps,
      env: { ...env, SCARF_ANALYTICS: 'false', npm_config_update_notifier: 'false' },
      timeoutMs: INSTALL_TIMEOUT_MS - 10_000,
    });
    if (install.code !== 0) throw new Error(`npm ci --omit=dev failed:\n${install.output}`);
    const target = layout.steps.find((s) => 'install' in s.source);
    if (!target) throw new Error('the runtime stage copies no node_modules from a production install');
    renameSync(join(deps, 'node_modules'), join(app, target.destination));
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds production dependencies only', () => {
    const bundleDir = join(app, 'dist', 'app');
    expect(require.resolve('@nestjs/core', { paths: [bundleDir] }).startsWith(join(app, 'node_modules'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', '@nestjs', 'core'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3'))).toBe(true);
    // (typescript and ts-node do ship: typeorm depends on them.)
    for (const dev of ['jest', '@nestjs/cli', '@nestjs/testing', 'supertest', 'kubernetes-models', 'playwright-core']) {
      expect({ dev, installed: existsSync(join(app, 'node_modules', dev)) }).toEqual({ dev, installed: false });
    }
  });

  it('applies the migrations with the migration Job’s command', async () => {
    const job = resources.find((r) => r.kind === 'Job');
    const [container] = job?.spec.template.spec.containers ?? [];
    const [command, ...args] = [...container.command, ...(container.args ?? [])] as string[];
    expect(command).toBe('node');
    const result = await run(process.execPath, args, { cwd: app, env: containerEnv(container), timeoutMs: 60_000 });
    expect({ code: result.code, output: result.output }).toEqual({ code: 0, output: expect.stringMatching(/Applied|No pending migrations/) });
    const again = await run(process.execPath, args, { cwd: app, env: containerEnv(container), timeoutMs: 60_000 });
    expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringContaining('No pending migrations') });
  }, 120_000);

  it('imports platform data with the import template’s command, from the file where its ConfigMap is mounted', async () => {
    place(PLATFORM_APPS.transactionalService.name);
    const migration = resources.find((r) => r.kind === 'Job')?.spec.template.spec.containers[0];
    const migrated = await run(process.execPath, migration.command.slice(1), { cwd: app, env: containerEnv(migration), timeoutMs: 60_000 });
    expect(migrated.code).toBe(0);

    const spec = podSpec(resources.find((r) => r.kind === 'CronJob') as Json);
    const [container] = spec.containers;
    const [command, ...args] = [...container.command, ...(container.args ?? [])] as string[];
    expect(command).toBe('node');
    // The ConfigMap's volume as the kubelet lays it out: each item a file under the container's mount path.
    const volume = (spec.volumes as Json[]).find((v) => v.configMap);
    const mount = (container.volumeMounts as Json[]).find((m) => m.name === volume.name);
    const mounted = join(work, 'configmap-volume');
    mkdirSync(mounted);
    const organization = anOrganization();
    const environment = anEnvironment(organization.uuid);
    const data = { organizations: [organization], environments: [environment], bots: [aBot(environment.uuid)] };
    for (const item of volume.configMap.items as Json[]) writeFileSync(join(mounted, item.path), JSON.stringify(data));
    const inMount = (arg: string) => arg.startsWith(`${mount.mountPath}/`);
    expect(args.filter(inMount)).toHaveLength(1);
    const local = args.map((arg) => (inMount(arg) ? join(mounted, arg.slice(mount.mountPath.length + 1)) : arg));

    for (let i = 0; i < 2; i++) {
      // Twice: the import is an upsert by uuid, so a Job run again changes nothing and succeeds.
      const result = await run(process.execPath, local, { cwd: app, env: containerEnv(container), timeoutMs: 60_000 });
      expect({ code: result.code, output: result.output }).toEqual({
        code: 0,
        output: expect.stringContaining('Imported {"organizations":1,"environments":1,"bots":1,"flows":0,"connectorContent":0}'),
      });
    }
  }, 120_000);

  it.each(APPS.map((a) => [a.name, a] as const))(
    'starts %s with the image’s CMD and the manifests’ environment: ready, with its API documents',
    async (_, platformApp) => {
      place(platformApp.name);
      const before = listFiles(app);
      const deployment = resources.find((r) => r.kind === 'Deployment' && r.metadata.name === platformApp.name);
      const [command, ...args] = layout.cmd;
      expect(command).toBe('node');
      // The app's start line, an info line, names the port it took (PORT=0).
      const env = { ...containerEnv(deployment?.spec.template.spec.containers[0]), LOG_LEVEL: 'info' };
      const sut = await startApp({ args, cwd: app, env });
      const base = sut.base;
      try {
        const docs = await fetch(`${base}/${platformApp.label}/docs-json`);
        expect(docs.status).toBe(200);
        expect(((await docs.json()) as { info: { title: string } }).info.title).toContain('Bot Platform Management API');
        expect(await linkedAsyncApiDocument(base, platformApp.label)).toBe(committedAsyncApiDocumentOf(platformApp.name));
        const live = await fetch(`${base}/health/live`);
        expect(live.status).toBe(200);
      } finally {
        await sut.stop('SIGTERM');
      }
      expect(listFiles(app)).toEqual(before); // read-only root filesystem: nothing written beside the code
    },
    APP_START_TIMEOUT_MS + 30_000,
  );

  it("runs the transactional service's answer worker script from the image's layout and production install", async () => {
    place(PLATFORM_APPS.transactionalService.name);
    const task = JSON.stringify({ whole: true, texts: [], secrets: [], shownBytes: 65536, isJson: false, expression: '$.data.level' });
    // As the pool hands it over (workers/worker-task.ts): the task, and the word where the worker writes when it starts.
    const envelope = `{ task: { ...${task}, bytes: Buffer.from('{"data":{"level":7}}') }, started: new SharedArrayBuffer(8) }`;
    const script = `process.stdout.write(JSON.stringify(require('./dist/app/answer.worker.js').default(${envelope})))`;
    const result = await run(process.execPath, ['-e', script], { cwd: app, env: { PATH: process.env.PATH }, timeoutMs: 30_000 });
    expect({ code: result.code, output: result.output }).toEqual({
      code: 0,
      output: JSON.stringify({
        texts: [],
        body: '{"data":{"level":7}}',
        bodyTruncated: false,
        query: { values: [7], valuesTruncated: false, error: null, hint: null },
      }),
    });
  });
});

import { IMPORT_BODY_LIMIT_BYTES } from '@app/domain';
import { loadAppConfig, PLATFORM_APPS } from '@app/platform';
import {
  BASE_DIR,
  configMapData,
  DestinationPod,
  egressAllows,
  envExampleVariables,
  INGRESS_NAMESPACE,
  ipBlockHolds,
  Json,
  MONITORING_NAMESPACE,
  networkAllows,
  OVERLAY_DIR,
  peerAdmits,
  peerPod,
  podContainers,
  podLabels,
  podSpec,
  podTemplate,
  REQUIRED_SECRET_VARIABLES,
  renderKustomization,
  resolveContainerEnv,
  Resource,
  SECRET_VARIABLES,
  secretExampleData,
  selects,
  SUPPORT_TOOLING_LABEL,
} from './deploy-support';
import { restrictedViolations } from './pod-security';

const APPS = Object.values(PLATFORM_APPS);
const PUBLIC_APPS = APPS.filter((app) => app.name !== 'environment');
const ENVIRONMENT = PLATFORM_APPS.environment;
const DRAIN_SECONDS = 10;
const VALID_SECRETS = {
  DATABASE_URL: 'mysql://platform:pw@mysql-primary:3306/platform',
  DATABASE_READ_URLS: 'mysql://platform:pw@replica-1:3306/platform',
  AUTH_JWT_SECRET: 'a-test-secret-of-at-least-32-characters!',
  SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
  SECRETS_KEY_PREVIOUS: Buffer.alloc(32, 2).toString('base64'),
  NATS_URL: 'nats://platform:pw@nats:4222',
};

/** Policy facts, on the base and on the rendered example overlay (an overlay must not weaken them). */
describe.each([
  ['base', BASE_DIR],
  ['overlays/example', OVERLAY_DIR],
])('deployment policy (%s)', (_, dir) => {
  const resources = renderKustomization(dir).resources;
  const namespace = resources.find((r) => r.kind !== 'Namespace')?.metadata.namespace ?? 'default';
  const ofKind = (kind: string) => resources.filter((r) => r.kind === kind);
  const deploymentOf = (name: string): Resource => {
    const found = ofKind('Deployment').find((d) => d.metadata.labels?.['app.kubernetes.io/name'] === name);
    if (!found) throw new Error(`no Deployment labelled app.kubernetes.io/name=${name}`);
    return found;
  };
  const selecting = (kind: string, deployment: Resource, selectorOf: (r: Resource) => Json) =>
    ofKind(kind).filter((r) => selects(selectorOf(r), podLabels(deployment)));
  const workloads = [...ofKind('Deployment'), ...ofKind('Job'), ...ofKind('CronJob')];
  /** The CLI jobs: the migration Job and the import's template. */
  const cliJobs = [...ofKind('Job'), ...ofKind('CronJob')];

  it('has one Deployment per app, and a migration Job running the CLI migrate', () => {
    expect(
      ofKind('Deployment')
        .map((d) => d.metadata.labels?.['app.kubernetes.io/name'])
        .sort(),
    ).toEqual(APPS.map((a) => a.name).sort());
    const jobs = ofKind('Job');
    expect(jobs).toHaveLength(1);
    const [container] = jobs[0].spec.template.spec.containers;
    expect([...(container.command ?? []), ...(container.args ?? [])]).toEqual(['node', 'dist/tools/cli/main.js', 'migrate']);
    expect(jobs[0].spec.template.spec.restartPolicy).toBe('Never');
  });

  it('has the import as a suspended template (never scheduled), running the CLI import on the file its ConfigMap mounts', () => {
    const templates = ofKind('CronJob');
    expect(templates.map((t) => t.metadata.name)).toEqual(['platform-import']);
    const [template] = templates;
    expect(template.spec.suspend).toBe(true);
    const job = template.spec.jobTemplate.spec;
    // A rejected file is rejected again: one try, and the Job is cleaned up a day after it finished.
    expect({ backoffLimit: job.backoffLimit, ttl: job.ttlSecondsAfterFinished, restart: job.template.spec.restartPolicy }).toEqual({
      backoffLimit: 0,
      ttl: 86400,
      restart: 'Never',
    });
    expect(job.activeDeadlineSeconds).toBeGreaterThan(0);
    const spec = podSpec(template);
    const [container] = spec.containers;
    const command = [...(container.command ?? []), ...(container.args ?? [])] as string[];
    expect(command.slice(0, 3)).toEqual(['node', 'dist/tools/cli/main.js', 'import']);
    expect(command).toHaveLength(4);
    // The file it names is a key of the ConfigMap platform-import, mounted read-only.
    const mount = (container.volumeMounts as Json[]).find((m) => command[3].startsWith(`${m.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    const volume = (spec.volumes as Json[]).find((v) => v.name === mount?.name);
    expect(volume?.configMap?.name).toBe('platform-import');
    expect(volume?.configMap?.optional).not.toBe(true);
    expect(volume?.configMap?.items).toEqual([{ key: 'data.json', path: command[3].slice(mount.mountPath.length + 1) }]);
    // The same image as the migration, so the import always runs the release's CLI and schema.
    expect(container.image).toBe(ofKind('Job')[0].spec.template.spec.containers[0].image);
  });

  describe.each(APPS.map((app) => [app.name, app] as const))('%s', (__, app) => {
    const deployment = deploymentOf(app.name);
    const spec = podSpec(deployment);
    const [container] = spec.containers;

    it('runs one container on its port, with liveness /health/live and readiness /health/ready', () => {
      expect(spec.containers).toHaveLength(1);
      expect(container.ports).toEqual([expect.objectContaining({ name: 'http', containerPort: app.defaultPort })]);
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(container.image).toMatch(new RegExp(`/${app.name}(:|@)`));
    });

    it('outlives the 10 s drain: grace period > preStop sleep + drain', () => {
      const preStop = container.lifecycle?.preStop?.exec?.command as string[] | undefined;
      const sleep = preStop && preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
      expect(sleep).toBeGreaterThan(0);
      expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(DRAIN_SECONDS + sleep);
    });

    it('requests and limits CPU and memory, the request sized from the bench and the limit at most 7x it', () => {
      expect(container.resources?.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources?.limits).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      const millicores = (cpu: string) => (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000);
      const request = millicores(container.resources.requests.cpu);
      // docs/operations.md, "Sizing": a pod at the HPA's 70 % serves ~560 mixed requests/s (transactional), ~390 reads/s.
      expect(request).toBe(app.name === PLATFORM_APPS.transactionalService.name ? 400 : 150);
      expect(millicores(container.resources.limits.cpu) / request).toBeLessThanOrEqual(7);
    });

    it('has a Service on its port, a CPU HorizontalPodAutoscaler and a PodDisruptionBudget', () => {
      const services = selecting('Service', deployment, (s) => ({ matchLabels: s.spec.selector }));
      expect(services).toHaveLength(1);
      expect(services[0].spec.ports).toEqual([expect.objectContaining({ port: app.defaultPort, targetPort: 'http' })]);
      const hpas = ofKind('HorizontalPodAutoscaler').filter(
        (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deployment.metadata.name,
      );
      expect(hpas).toHaveLength(1);
      expect(hpas[0].apiVersion).toBe('autoscaling/v2');
      expect(hpas[0].spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: expect.objectContaining({ type: 'Utilization' }) } }]);
      expect(hpas[0].spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpas[0].spec.maxReplicas).toBeGreaterThanOrEqual(hpas[0].spec.minReplicas);
      expect(deployment.spec.replicas).toBeUndefined(); // the HPA owns the replica count
      const pdbs = selecting('PodDisruptionBudget', deployment, (p) => p.spec.selector);
      expect(pdbs).toHaveLength(1);
      expect(pdbs[0].spec.minAvailable ?? 0).toBeLessThan(hpas[0].spec.minReplicas);
    });

    it('receives every variable of .env.example, secrets from the Secret, the rest from the ConfigMap', () => {
      const env = new Map<string, Json>((container.env ?? []).map((e: Json) => [e.name, e]));
      expect(container.envFrom).toBeUndefined();
      expect([...env.keys()].sort()).toEqual(envExampleVariables().sort());
      expect(env.size).toBe((container.env ?? []).length); // no duplicates
      for (const [name, variable] of env) {
        if (SECRET_VARIABLES.includes(name)) {
          expect({ name, ref: variable.valueFrom?.secretKeyRef }).toEqual({
            name,
            ref: { name: 'platform-secrets', key: name, optional: !REQUIRED_SECRET_VARIABLES.includes(name) },
          });
        } else if (name === 'PORT') {
          expect(variable.value).toBe(String(app.defaultPort));
        } else if (name === 'TRUST_PROXY_HOPS' && !PUBLIC_APPS.some((open) => open.name === app.name)) {
          // No ingress stands in front of an internal app: it trusts no X-Forwarded-For.
          expect(variable.value).toBe('0');
        } else {
          expect({ name, ref: variable.valueFrom?.configMapKeyRef }).toEqual({
            name,
            ref: expect.objectContaining({ name: 'platform-config', key: name }),
          });
        }
      }
    });

    it('starts with the rendered ConfigMap and a Secret with the example’s keys (config validation passes)', () => {
      const secretKeys = Object.keys(secretExampleData());
      const secrets = Object.fromEntries(secretKeys.map((k) => [k, VALID_SECRETS[k as keyof typeof VALID_SECRETS]]));
      const env = resolveContainerEnv(container, { 'platform-config': configMapData(resources, 'platform-config') }, { 'platform-secrets': secrets });
      const config = loadAppConfig(env, app.defaultPort);
      expect(config.nodeEnv).toBe('production');
      expect(config.port).toBe(app.defaultPort);
      expect(config.auth.mode).toBe('secret');
      expect(config.database).toEqual(expect.objectContaining({ type: 'mysql', readUrls: [expect.stringContaining('replica-1')] }));
      expect(config.changeEvents).toEqual({ natsUrl: VALID_SECRETS.NATS_URL, stream: 'CONNECTOR_EVENTS', retentionDays: 7, maxPublishAttempts: 5 });
    });

    it('refuses to start with the example Secret’s placeholders', () => {
      const env = resolveContainerEnv(
        container,
        { 'platform-config': configMapData(resources, 'platform-config') },
        { 'platform-secrets': secretExampleData() },
      );
      expect(() => loadAppConfig(env, app.defaultPort)).toThrow(/AUTH_JWT_SECRET.*SECRETS_KEY|SECRETS_KEY.*AUTH_JWT_SECRET/);
    });
  });

  it('hardens every container of every Deployment, Job and CronJob', () => {
    expect(workloads.length).toBe(APPS.length + 2);
    for (const workload of workloads) {
      const spec = podSpec(workload);
      const id = `${workload.kind}/${workload.metadata.name}`;
      expect({ id, automount: spec.automountServiceAccountToken }).toEqual({ id, automount: false });
      expect({ id, seccomp: spec.securityContext?.seccompProfile?.type }).toEqual({ id, seccomp: 'RuntimeDefault' });
      const tmpVolumes = (spec.volumes ?? []).filter((v: Json) => v.emptyDir).map((v: Json) => v.name);
      for (const c of podContainers(workload)) {
        const sc = { ...spec.securityContext, ...c.securityContext };
        expect({ id, container: c.name, sc }).toEqual({
          id,
          container: c.name,
          sc: expect.objectContaining({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }),
        });
        expect(sc.runAsUser).toBeGreaterThan(0);
        expect(c.securityContext?.privileged).not.toBe(true);
        expect(c.securityContext?.capabilities?.drop).toContain('ALL');
        expect(c.securityContext?.capabilities?.add ?? []).toEqual([]);
        const tmp = (c.volumeMounts ?? []).find((m: Json) => m.mountPath === '/tmp');
        expect(tmpVolumes).toContain(tmp?.name);
      }
    }
  });

  it("makes only pods the namespace's restricted Pod Security Standard admits", () => {
    for (const workload of workloads) {
      const { metadata, spec } = podTemplate(workload) as Json;
      expect({ id: `${workload.kind}/${workload.metadata.name}`, violations: restrictedViolations(metadata, spec) }).toEqual({
        id: `${workload.kind}/${workload.metadata.name}`,
        violations: [],
      });
    }
  });

  it.each(cliJobs.map((job) => [`${job.kind}/${job.metadata.name}`, job] as const))(
    'gives %s every variable except PORT, from the same sources as the apps, valid for the CLI',
    (__, job) => {
      const [container] = podSpec(job).containers;
      const names = (container.env as Json[]).map((e) => e.name).sort();
      expect(names).toEqual(
        envExampleVariables()
          .filter((n) => n !== 'PORT')
          .sort(),
      );
      const appEnv = new Map((podSpec(deploymentOf(PLATFORM_APPS.transactionalService.name)).containers[0].env as Json[]).map((e) => [e.name, e]));
      for (const variable of container.env as Json[]) expect(variable).toEqual(appEnv.get(variable.name));
      const env = resolveContainerEnv(container, { 'platform-config': configMapData(resources, 'platform-config') }, { 'platform-secrets': VALID_SECRETS });
      expect(loadAppConfig(env).nodeEnv).toBe('production');
    },
  );

  it('gives every Deployment and the Job NATS_URL as an optional key of the Secret (blank: no broker), the stream, retention and parking from the ConfigMap', () => {
    const config = configMapData(resources, 'platform-config');
    const { NATS_STREAM, EVENTS_RETENTION_DAYS, EVENTS_PUBLISH_MAX_ATTEMPTS } = config;
    expect({ NATS_STREAM, EVENTS_RETENTION_DAYS, EVENTS_PUBLISH_MAX_ATTEMPTS }).toEqual({
      NATS_STREAM: 'CONNECTOR_EVENTS',
      EVENTS_RETENTION_DAYS: '7',
      EVENTS_PUBLISH_MAX_ATTEMPTS: '5',
    });
    expect(secretExampleData().NATS_URL).toBe('');
    for (const workload of workloads) {
      const id = `${workload.kind}/${workload.metadata.name}`;
      for (const c of podSpec(workload).containers as Json[]) {
        const refs = Object.fromEntries((c.env as Json[]).filter((e) => /^(NATS_|EVENTS_)/.test(e.name)).map((e) => [e.name, e.valueFrom]));
        expect({ id, refs }).toEqual({
          id,
          refs: {
            NATS_URL: { secretKeyRef: { name: 'platform-secrets', key: 'NATS_URL', optional: true } },
            NATS_STREAM: { configMapKeyRef: { name: 'platform-config', key: 'NATS_STREAM' } },
            EVENTS_RETENTION_DAYS: { configMapKeyRef: { name: 'platform-config', key: 'EVENTS_RETENTION_DAYS' } },
            EVENTS_PUBLISH_MAX_ATTEMPTS: { configMapKeyRef: { name: 'platform-config', key: 'EVENTS_PUBLISH_MAX_ATTEMPTS' } },
          },
        });
        // The Secret without the key, or with the example's blank value: no broker, the feed only.
        const { NATS_URL: _natsUrl, ...withoutNats } = VALID_SECRETS;
        for (const secrets of [withoutNats, { ...VALID_SECRETS, NATS_URL: '' }]) {
          const env = resolveContainerEnv(c, { 'platform-config': config }, { 'platform-secrets': secrets });
          expect({ id, natsUrl: loadAppConfig(env, 3001).changeEvents.natsUrl }).toEqual({ id, natsUrl: undefined });
        }
      }
    }
  });

  it('refers only to ConfigMap and Secret keys that the base defines', () => {
    const configKeys = Object.keys(configMapData(resources, 'platform-config'));
    const secretKeys = Object.keys(secretExampleData());
    expect(secretKeys.sort()).toEqual([...SECRET_VARIABLES].sort());
    expect(configKeys.filter((k) => SECRET_VARIABLES.includes(k))).toEqual([]);
    for (const workload of workloads) {
      for (const c of podContainers(workload)) {
        for (const e of c.env ?? []) {
          const cm = e.valueFrom?.configMapKeyRef;
          const secret = e.valueFrom?.secretKeyRef;
          if (cm)
            expect({ ref: `${cm.name}/${cm.key}`, ok: cm.name === 'platform-config' && configKeys.includes(cm.key) }).toEqual({
              ref: `${cm.name}/${cm.key}`,
              ok: true,
            });
          if (secret)
            expect({ ref: `${secret.name}/${secret.key}`, ok: secret.name === 'platform-secrets' && secretKeys.includes(secret.key) }).toEqual({
              ref: `${secret.name}/${secret.key}`,
              ok: true,
            });
        }
      }
    }
  });

  describe('Ingress', () => {
    const ingresses = ofKind('Ingress');
    const routes = ingresses.flatMap((ingress) =>
      (ingress.spec.rules ?? []).flatMap((rule: Json) =>
        (rule.http?.paths ?? []).map((path: Json) => {
          const service = ofKind('Service').find((s) => s.metadata.name === path.backend.service?.name);
          const app = APPS.find((a) => service && selects({ matchLabels: service.spec.selector }, podLabels(deploymentOf(a.name))));
          return { ingress, path, service, app };
        }),
      ),
    );

    it('routes exactly the two public labels, pathType Prefix, to their apps, without rewriting', () => {
      expect(ingresses).toHaveLength(1);
      expect(ingresses[0].spec.defaultBackend).toBeUndefined();
      expect(Object.keys(ingresses[0].metadata.annotations ?? {}).filter((a) => /rewrite|configuration-snippet|server-snippet/.test(a))).toEqual([]);
      expect(routes.map((r) => [r.path.path, r.path.pathType, r.app?.name]).sort()).toEqual(PUBLIC_APPS.map((a) => [`/${a.label}`, 'Prefix', a.name]).sort());
      for (const r of routes) {
        const port = r.path.backend.service.port;
        expect(r.service.spec.ports.some((p: Json) => p.name === port.name || p.port === port.number)).toBe(true);
      }
    });

    it('lets a connector test run take its longest timeout before the ingress cuts it', () => {
      const longestRunSeconds = 120; // CONNECTOR_TEST_TIMEOUT_MS's maximum (environment-variables.ts)
      for (const annotation of ['nginx.ingress.kubernetes.io/proxy-read-timeout', 'nginx.ingress.kubernetes.io/proxy-send-timeout']) {
        expect(Number(ingresses[0].metadata.annotations?.[annotation])).toBeGreaterThan(longestRunSeconds);
      }
    });

    it("lets an import's request body through: the app's own limit for it, not ingress-nginx's 1m default", () => {
      const size = /^(\d+)m$/.exec(ingresses[0].metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '');
      expect(size).not.toBeNull();
      expect(Number(size![1]) * 1024 * 1024).toBeGreaterThanOrEqual(IMPORT_BODY_LIMIT_BYTES);
    });

    it('has no rule for the environment app (label, Service or pods)', () => {
      const env = deploymentOf(ENVIRONMENT.name);
      for (const r of routes) {
        expect(r.path.path).not.toContain(ENVIRONMENT.label);
        expect(r.service && selects({ matchLabels: r.service.spec.selector }, podLabels(env))).toBe(false);
      }
    });
  });

  describe('NetworkPolicies', () => {
    const policies = ofKind('NetworkPolicy');
    const controller = peerPod(INGRESS_NAMESPACE, { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller' });
    const prometheus = peerPod(MONITORING_NAMESPACE, { 'app.kubernetes.io/name': 'prometheus' });
    const support = { [SUPPORT_TOOLING_LABEL]: 'true' };
    const allows = (appName: string, source: ReturnType<typeof peerPod>, port: number) => {
      const deployment = deploymentOf(appName);
      return networkAllows(policies, namespace, podLabels(deployment), podSpec(deployment).containers[0].ports, source, port);
    };

    it('deny all ingress in the namespace by default', () => {
      const denyAll = policies.filter(
        (p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && p.spec.policyTypes?.includes('Ingress') && !(p.spec.ingress ?? []).length,
      );
      expect(denyAll).toHaveLength(1);
      // A pod no other policy selects (a debug pod, the migration job) accepts nothing.
      expect(networkAllows(policies, namespace, { run: 'debug' }, [], peerPod(namespace, {}), 8080)).toBe(false);
      expect(networkAllows(policies, namespace, podLabels(ofKind('Job')[0]), [], peerPod(namespace, support), 3001)).toBe(false);
      expect(networkAllows(policies, namespace, podLabels(ofKind('CronJob')[0]), [], peerPod(namespace, support), 3001)).toBe(false);
    });

    it.each(PUBLIC_APPS.map((a) => [a.name, a] as const))('admit the ingress controller and Prometheus to %s, on its port only', (__, app) => {
      expect(allows(app.name, controller, app.defaultPort)).toBe(true);
      expect(allows(app.name, prometheus, app.defaultPort)).toBe(true);
      expect(allows(app.name, controller, 9229)).toBe(false);
      expect(allows(app.name, peerPod(namespace, { 'app.kubernetes.io/name': 'bot-admin' }), app.defaultPort)).toBe(false);
      expect(allows(app.name, peerPod('other', {}), app.defaultPort)).toBe(false);
    });

    it('admit to the environment app only pods with the support-tooling label, and Prometheus on its port', () => {
      const port = ENVIRONMENT.defaultPort;
      expect(allows(ENVIRONMENT.name, peerPod(namespace, support), port)).toBe(true);
      expect(allows(ENVIRONMENT.name, peerPod('support', support, support), port)).toBe(true);
      expect(allows(ENVIRONMENT.name, prometheus, port)).toBe(true);

      expect(allows(ENVIRONMENT.name, controller, port)).toBe(false);
      expect(allows(ENVIRONMENT.name, peerPod(INGRESS_NAMESPACE, { ...controller.labels, ...support }), port)).toBe(false);
      expect(allows(ENVIRONMENT.name, peerPod(namespace, {}), port)).toBe(false);
      expect(allows(ENVIRONMENT.name, peerPod(namespace, { [SUPPORT_TOOLING_LABEL]: 'yes' }), port)).toBe(false);
      expect(allows(ENVIRONMENT.name, peerPod(namespace, podLabels(deploymentOf('bot-admin'))), port)).toBe(false);
      expect(allows(ENVIRONMENT.name, peerPod('other', support), port)).toBe(false); // a namespace without the label
      expect(allows(ENVIRONMENT.name, peerPod(namespace, support), 9229)).toBe(false);
      expect(allows(ENVIRONMENT.name, prometheus, 9229)).toBe(false);
    });

    it('every rule reaching the environment app names the support-tooling pod label, or is the metrics rule on its port', () => {
      const env = deploymentOf(ENVIRONMENT.name);
      const rules = policies.filter((p) => selects(p.spec.podSelector, podLabels(env))).flatMap((p) => (p.spec.ingress ?? []) as Json[]);
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        expect(rule.from?.length).toBeGreaterThan(0);
        expect(rule.ports).toEqual([{ protocol: 'TCP', port: ENVIRONMENT.defaultPort }]);
        for (const peer of rule.from) {
          expect(peer.ipBlock).toBeUndefined();
          const supportPeer = peer.podSelector?.matchLabels?.[SUPPORT_TOOLING_LABEL] === 'true';
          const metricsPeer = peerAdmits(peer, namespace, prometheus) && peer.podSelector && peer.namespaceSelector;
          expect({ peer, ok: supportPeer || !!metricsPeer }).toEqual({ peer, ok: true });
          expect(peerAdmits(peer, namespace, controller)).toBe(false);
        }
      }
    });

    it("let the transactional service call public addresses only, besides DNS and the platform's own dependencies", () => {
      const egress = policies.filter((p) => (p.spec.policyTypes ?? []).includes('Egress'));
      expect(egress.map((p) => p.metadata.name)).toEqual(['transactional-service-egress']);
      const [policy] = egress;
      expect(selects(policy.spec.podSelector, podLabels(deploymentOf(PLATFORM_APPS.transactionalService.name)))).toBe(true);
      const blocks: Array<{ cidr: string; except?: string[] }> = policy.spec.egress.flatMap((rule: Json) =>
        (rule.to ?? []).map((peer: Json) => peer.ipBlock).filter(Boolean),
      );
      // Classified only: nothing connects to these addresses.
      const admitted = (address: string) => blocks.some((block) => ipBlockHolds(block, address));
      expect(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'].filter(admitted)).toEqual(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']);
      expect(
        ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '127.0.0.1', 'fd00::1', 'fe80::1', '::1', '::ffff:10.0.0.1'].filter(
          admitted,
        ),
      ).toEqual([]);
      const ports = policy.spec.egress.flatMap((rule: Json) => (rule.ports ?? []).map((p: Json) => `${p.protocol}/${p.port}`));
      expect(ports).toEqual(expect.arrayContaining(['UDP/53', 'TCP/53', 'TCP/3306', 'TCP/6379', 'TCP/4222']));
    });

    it('let the transactional service reach NATS (TCP 4222) and the other platform dependencies by their label, on their client ports only', () => {
      const source = podLabels(deploymentOf(PLATFORM_APPS.transactionalService.name));
      const dependency = { 'platform.example.com/platform-dependency': 'true' };
      const natsLabels = { 'app.kubernetes.io/name': 'nats', ...dependency };
      // A pod address in a private range, as the cluster gives them: classified only, never dialled.
      const pod = (ns: string, labels: Record<string, string>, nsLabels: Record<string, string> = {}): DestinationPod => ({
        ...peerPod(ns, labels, nsLabels),
        address: '10.42.0.7',
      });
      const reaches = (destination: DestinationPod, port: number, protocol: 'TCP' | 'UDP' = 'TCP') =>
        egressAllows(policies, namespace, source, destination, port, protocol);

      expect(reaches(pod(namespace, natsLabels), 4222)).toBe(true);
      expect(reaches(pod('messaging', natsLabels, dependency), 4222)).toBe(true);
      for (const port of [3306, 6379]) expect(reaches(pod(namespace, dependency), port)).toBe(true); // the database, Redis

      expect(reaches(pod(namespace, natsLabels), 4222, 'UDP')).toBe(false);
      expect(reaches(pod(namespace, natsLabels), 8222)).toBe(false); // NATS monitoring
      expect(reaches(pod(namespace, natsLabels), 6222)).toBe(false); // NATS cluster routes
      expect(reaches(pod(namespace, { 'app.kubernetes.io/name': 'nats' }), 4222)).toBe(false); // without the label
      expect(reaches(pod('messaging', natsLabels), 4222)).toBe(false); // in a namespace without the label
      expect(reaches(pod(namespace, podLabels(deploymentOf(PLATFORM_APPS.botAdmin.name))), 4222)).toBe(false);
    });

    it('let the transactional service ask DNS of kube-dns and of NodeLocal DNSCache (169.254.20.10), on port 53 only', () => {
      const source = podLabels(deploymentOf(PLATFORM_APPS.transactionalService.name));
      // Addresses classified only, never dialled: a kube-dns pod's, NodeLocal DNSCache's, and others of 169.254.0.0/16.
      const kubeDns = { ...peerPod('kube-system', { 'k8s-app': 'kube-dns' }), address: '10.42.0.10' };
      const at = (address: string): DestinationPod => ({ ...peerPod('kube-system', {}), address });
      const reaches = (destination: DestinationPod, port: number, protocol: 'TCP' | 'UDP') =>
        egressAllows(policies, namespace, source, destination, port, protocol);
      for (const protocol of ['UDP', 'TCP'] as const) {
        expect(reaches(kubeDns, 53, protocol)).toBe(true);
        expect(reaches(at('169.254.20.10'), 53, protocol)).toBe(true);
        // The rest of link-local stays shut: the cloud's metadata and DNS (169.254.169.254, .253), a neighbour.
        for (const address of ['169.254.169.254', '169.254.169.253', '169.254.20.11'])
          expect({ address, ok: reaches(at(address), 53, protocol) }).toEqual({ address, ok: false });
      }
      for (const port of [80, 443, 8080, 9253]) expect({ port, ok: reaches(at('169.254.20.10'), port, 'TCP') }).toEqual({ port, ok: false });
      expect(reaches(kubeDns, 443, 'TCP')).toBe(false);
    });

    it('let Prometheus scrape /metrics as the pods announce it', () => {
      for (const app of APPS) {
        const annotations = deploymentOf(app.name).spec.template.metadata.annotations ?? {};
        expect(annotations).toEqual(
          expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(app.defaultPort), 'prometheus.io/path': '/metrics' }),
        );
      }
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { AppConfig, loadAppConfig, PLATFORM_APPS } from '@app/platform';
import { BlockedDestinationError, OutboundGuard } from '../../apps/transactional-service/src/rest-connectors/test-runs/outbound-guard';
import { DEFAULT_REPLICA_MAX_LAG_MS } from '../../libs/domain/src/database/replicas/read-replicas';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from '../../libs/domain/src/database/server-pool';
import {
  applyJsonPatch,
  BASE_DIR,
  configMapData,
  egressAllows,
  envExampleVariables,
  Json,
  networkAllows,
  OVERLAY_DIR,
  peerPod,
  podLabels,
  podSpec,
  readYamlDocuments,
  renderKustomization,
  Resource,
  ROOT,
  validateResource,
} from './deploy-support';
import { codeBlocks, codeSpans, markdownTable, readOperationsDoc, section, shellCommands } from './operations-doc';
import { restrictedViolations } from './pod-security';

/** docs/operations.md tells an operator what the manifests and the code do. */
describe('docs/operations.md against the manifests', () => {
  const doc = readOperationsDoc();
  const base = renderKustomization(BASE_DIR).resources;
  const overlay = renderKustomization(OVERLAY_DIR).resources;
  const namespace = overlay.find((r) => r.kind === 'Namespace')?.metadata.name as string;
  const find = (resources: Resource[], kind: string, name?: string): Resource => {
    const found = resources.find((r) => r.kind === kind && (name === undefined || r.metadata.name === name));
    if (!found) throw new Error(`no ${kind}${name ? `/${name}` : ''}`);
    return found;
  };
  const commandsOf = (heading: string) => shellCommands(section(doc, heading));
  const oneMatch = (commands: string[], pattern: RegExp): RegExpExecArray => {
    const matches = commands.map((c) => pattern.exec(c)).filter((m): m is RegExpExecArray => m !== null);
    expect({ pattern: String(pattern), count: matches.length }).toEqual({ pattern: String(pattern), count: 1 });
    return matches[0];
  };

  describe('"Configuring": the configuration table', () => {
    const rows = markdownTable(section(doc, 'Configuring'), ['variable', 'source', 'base', 'example overlay', 'notes']);
    const byVariable = new Map(rows.map((cells) => [codeSpans(cells[0])[0], cells]));
    const publicApp = find(base, 'Deployment', PLATFORM_APPS.transactionalService.name);
    const envOf = (deployment: Resource) => new Map((podSpec(deployment).containers[0].env as Json[]).map((e) => [e.name, e]));
    const baseConfig = configMapData(base, 'platform-config');
    const overlayConfig = configMapData(overlay, 'platform-config');
    const shown = (value: string) => (value === '' ? 'blank' : `\`${value}\``);
    const secrets = {
      DATABASE_URL: 'mysql://platform:pw@mysql-primary:3306/platform',
      AUTH_JWT_SECRET: 'a-test-secret-of-at-least-32-characters!',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    };
    /** The configuration as the app runs with it: the database's tuning, which loadAppConfig leaves unset, as its layer defaults it. */
    const load = (env: Record<string, string>): AppConfig => {
      const config = loadAppConfig(env, 3001);
      const tuning = { replicaMaxLagMs: DEFAULT_REPLICA_MAX_LAG_MS, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS };
      return config.database.type === 'sqlite' ? config : { ...config, database: { ...tuning, ...config.database } };
    };
    /** Does the base ConfigMap's value of `key` change the app's configuration from the app's default? */
    const overridesDefault = (key: string) => {
      const { [key]: _value, ...without } = baseConfig;
      return JSON.stringify(load({ ...baseConfig, ...secrets })) !== JSON.stringify(load({ ...without, ...secrets }));
    };
    const readmeDefaults = new Map(
      markdownTable(readFileSync(join(ROOT, 'README.md'), 'utf8'), ['variable', 'default', 'meaning']).flatMap((cells) =>
        codeSpans(cells[0]).map((name) => [name, cells[1]] as const),
      ),
    );

    it('has one row per variable of .env.example, one variable a row', () => {
      expect(rows.map((cells) => codeSpans(cells[0]))).toEqual(rows.map((cells) => [codeSpans(cells[0])[0]]));
      expect([...byVariable.keys()].sort()).toEqual(envExampleVariables().sort());
      expect(byVariable.size).toBe(rows.length);
    });

    it.each(envExampleVariables())('%s: the source, the base and the overlay values the manifests give', (name) => {
      const [, source, baseCell, overlayCell] = byVariable.get(name) as string[];
      const variable = envOf(publicApp).get(name);
      if (variable.valueFrom?.secretKeyRef) {
        expect(source).toBe(`Secret \`platform-secrets\`${variable.valueFrom.secretKeyRef.optional ? ' (optional ref)' : ''}`);
        expect([baseCell, overlayCell]).toEqual(['—', '—']);
      } else if (variable.valueFrom?.configMapKeyRef) {
        expect(source).toMatch(/^ConfigMap\b/);
        expect([baseCell, overlayCell]).toEqual([shown(baseConfig[name]), shown(overlayConfig[name])]);
        // "(environment: `0` in its Deployment)": each app that sets a literal of its own instead.
        const literals = base
          .filter((r) => r.kind === 'Deployment' && envOf(r).get(name)?.value !== undefined)
          .map((r) => [r.metadata.name, envOf(r).get(name).value]);
        expect([...source.matchAll(/(\w[\w-]*): `([^`]*)` in its Deployment/g)].map(([, app, value]) => [app, value])).toEqual(literals);
      } else {
        expect(source).toBe('the Deployment (literal)');
        const literals = ['transactionalService', 'environment', 'botAdmin'].map((app) => {
          const appName = PLATFORM_APPS[app as keyof typeof PLATFORM_APPS].name;
          return `\`${envOf(find(base, 'Deployment', appName)).get(name).value}\``;
        });
        expect([baseCell, overlayCell]).toEqual([literals.join(' / '), literals.join(' / ')]);
      }
    });

    it('names the app default where the base ConfigMap sets another value, the default README gives', () => {
      const overriding = Object.keys(baseConfig).filter(overridesDefault);
      expect(overriding.sort()).toEqual(['NODE_ENV', 'TRUST_PROXY_HOPS']);
      for (const key of Object.keys(baseConfig)) {
        const notes = (byVariable.get(key) as string[])[4];
        const stated = /\(app default: `([^`]*)`\)/.exec(notes)?.[1];
        const readme = readmeDefaults.get(key)?.replace(/`/g, '');
        expect({ key, stated }).toEqual({ key, stated: overriding.includes(key) ? readme : undefined });
      }
    });

    it("matches README's defaults with the app's own: a default set explicitly changes nothing", () => {
      const literal = [...readmeDefaults].filter(([, cell]) => /^`[^`]+`$|^\d+$/.test(cell));
      expect(literal.length).toBeGreaterThanOrEqual(15);
      for (const [name, cell] of literal) {
        const value = cell.replace(/`/g, '');
        expect({ name, value, config: loadAppConfig({ [name]: value }, 3001) }).toEqual({ name, value, config: loadAppConfig({}, 3001) });
      }
    });
  });

  describe('"Reaching the environment app from support tooling": the support shell', () => {
    const commands = commandsOf('Reaching the environment app from support tooling');
    const [, ns, file] = oneMatch(commands, /^kubectl -n (\S+) apply -f (docker\/k8s\/\S+\.yaml)$/);
    const [shell] = readYamlDocuments(join(ROOT, file)) as Resource[];

    it('is a Pod of the namespace, that the commands after it wait for, enter and delete by its name', () => {
      expect(ns).toBe(namespace);
      validateResource(shell, file);
      expect(shell.kind).toBe('Pod');
      const name = shell.metadata.name;
      expect(commands).toEqual(
        expect.arrayContaining([
          `kubectl -n ${ns} wait --for=condition=Ready pod/${name}`,
          `kubectl -n ${ns} exec -it ${name} -- sh`,
          `kubectl -n ${ns} delete pod ${name}`,
        ]),
      );
      expect(shell.spec.activeDeadlineSeconds).toBeGreaterThan(0); // a forgotten shell ends by itself
    });

    it("passes the namespace's restricted Pod Security Standard", () => {
      expect(find(overlay, 'Namespace').metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
      expect(restrictedViolations(shell.metadata, shell.spec)).toEqual([]);
      expect(shell.spec.automountServiceAccountToken).toBe(false);
      for (const container of shell.spec.containers) expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    });

    it("is let through to the environment app's port by the NetworkPolicies, and to no other app", () => {
      const policies = overlay.filter((r) => r.kind === 'NetworkPolicy');
      const reaches = (appName: string, port: number) => {
        const app = find(overlay, 'Deployment', appName);
        return networkAllows(policies, namespace, podLabels(app), podSpec(app).containers[0].ports, peerPod(namespace, shell.metadata.labels ?? {}), port);
      };
      expect(reaches(PLATFORM_APPS.environment.name, PLATFORM_APPS.environment.defaultPort)).toBe(true);
      expect(reaches(PLATFORM_APPS.transactionalService.name, PLATFORM_APPS.transactionalService.defaultPort)).toBe(false);
      expect(reaches(PLATFORM_APPS.botAdmin.name, PLATFORM_APPS.botAdmin.defaultPort)).toBe(false);
    });

    it('and no page starts a pod with `kubectl run`, which the restricted namespace refuses', () => {
      for (const page of ['docs/operations.md', 'README.md']) {
        const runs = shellCommands(readFileSync(join(ROOT, page), 'utf8')).filter((c) => /\bkubectl\b(\s+-n\s+\S+)?\s+run\s+\S/.test(c));
        expect({ page, runs }).toEqual({ page, runs: [] });
      }
    });
  });

  describe('"The ingress\'s TLS certificate"', () => {
    const text = section(doc, "The ingress's TLS certificate");
    const ingress = find(overlay, 'Ingress', 'bot-platform');

    it("creates the Secret the overlay's Ingress names, for its host, in its namespace", () => {
      const [, ns, name] = oneMatch(shellCommands(text), /^kubectl -n (\S+) create secret tls (\S+) --cert=\S+ --key=\S+$/);
      expect(ns).toBe(ingress.metadata.namespace);
      expect(ingress.spec.tls).toEqual([{ hosts: [ingress.spec.rules[0].host], secretName: name }]);
      expect(text).toContain(`\`${ingress.spec.rules[0].host}\``);
      expect(text).toContain(`\`${name}\``);
    });

    it("gives a cert-manager patch that applies to the overlay's Ingress", () => {
      const yamlBlocks = codeBlocks(text).filter((b) => b.language === 'yaml');
      expect(yamlBlocks).toHaveLength(1);
      const operations = parseAllDocuments(yamlBlocks[0].code)[0].toJS() as Json[];
      const patched = applyJsonPatch(ingress, operations, 'the doc');
      validateResource(patched, 'the doc');
      expect(patched.metadata.annotations['cert-manager.io/cluster-issuer']).toEqual(expect.any(String));
      expect(patched.spec).toEqual(ingress.spec);
    });
  });

  describe('"Loading platform data": the import', () => {
    const commands = commandsOf('Loading platform data');
    const template = find(overlay, 'CronJob');
    const volume = (podSpec(template).volumes as Json[]).find((v) => v.configMap);

    it('fills the ConfigMap and key the template mounts', () => {
      const [, ns, name, key] = oneMatch(
        commands,
        /^kubectl -n (\S+) create configmap (\S+) --from-file=([^=\s]+)=\S+ --dry-run=client -o yaml \| kubectl apply -f -$/,
      );
      expect(ns).toBe(template.metadata.namespace);
      expect(volume.configMap.name).toBe(name);
      expect(volume.configMap.items.map((item: Json) => item.key)).toEqual([key]);
    });

    it('makes its Job from the template, waits for it and reads its log', () => {
      const [, ns, jobVariable, cronJob] = oneMatch(commands, /^kubectl -n (\S+) create job "\$(\w+)" --from=cronjob\/(\S+)$/);
      expect([ns, cronJob]).toEqual([template.metadata.namespace, template.metadata.name]);
      expect(commands).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${jobVariable}=${template.metadata.name}-`))]));
      oneMatch(commands, new RegExp(`^kubectl -n ${ns} wait --for=condition=complete --timeout=\\S+ "job/\\$${jobVariable}"$`));
      oneMatch(commands, new RegExp(`^kubectl -n ${ns} logs "job/\\$${jobVariable}"$`));
    });
  });

  describe('"Network policy": DNS with NodeLocal DNSCache', () => {
    const text = section(doc, 'Network policy');
    const policies = overlay.filter((r) => r.kind === 'NetworkPolicy');
    const source = podLabels(find(overlay, 'Deployment', PLATFORM_APPS.transactionalService.name));
    /** kubeadm's kube-dns ClusterIP, as the doc's example: classified only, never dialled. */
    const clusterIp = { ...peerPod('kube-system', {}), address: '10.96.0.10' };

    it("gives a patch that admits the kube-dns Service's ClusterIP, on port 53 only", () => {
      const [block] = codeBlocks(text).filter((b) => b.language === 'yaml');
      const [entry] = parseAllDocuments(block.code)[0].toJS() as Json[];
      const target = policies.find((p) => p.metadata.name === entry.target.name && p.kind === entry.target.kind) as Resource;
      const patched = policies.map((p) => (p === target ? applyJsonPatch(p, parseAllDocuments(entry.patch)[0].toJS(), 'the doc') : p));
      validateResource(
        patched.find((p) => p.metadata.name === target.metadata.name),
        'the doc',
      );
      for (const protocol of ['UDP', 'TCP'] as const) {
        expect(egressAllows(policies, namespace, source, clusterIp, 53, protocol)).toBe(false);
        expect(egressAllows(patched, namespace, source, clusterIp, 53, protocol)).toBe(true);
      }
      expect(egressAllows(patched, namespace, source, clusterIp, 443, 'TCP')).toBe(false);
    });

    it("leaves the outbound guard refusing the cache's address as a test run's destination", async () => {
      const env = { ...configMapData(overlay, 'platform-config'), DATABASE_URL: 'mysql://u:p@db:3306/platform', AUTH_JWT_SECRET: 'x'.repeat(32) };
      const config = loadAppConfig({ ...env, SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') }, 3001);
      // The resolver is injected: nothing is looked up or dialled.
      const guard = new OutboundGuard(config.connectorTests.allowedCidrs, async () => ['169.254.20.10']);
      expect(guard.refusalOf('169.254.20.10', 53)).toBe('linkLocal');
      await expect(guard.addressesOf('dns.example', 53)).rejects.toBeInstanceOf(BlockedDestinationError);
      await expect(guard.addressesOf('169.254.20.10', 80)).rejects.toBeInstanceOf(BlockedDestinationError);
    });
  });
});

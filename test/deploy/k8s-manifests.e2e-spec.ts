import { join } from 'node:path';
import {
  BASE_DIR,
  K8S_DIR,
  OVERLAY_DIR,
  PART_OF,
  podContainers,
  podLabels,
  readKustomization,
  readYamlDocuments,
  rel,
  renderKustomization,
  Resource,
  ROOT,
  splitImage,
  validateResource,
  yamlFilesUnder,
} from './deploy-support';
import { operationsDocAppliedFiles } from './operations-doc';

/** docker/k8s: every document is a valid Kubernetes object, and the kustomizations render. */
describe('Kubernetes manifests (docker/k8s)', () => {
  const files = yamlFilesUnder(K8S_DIR);

  it('finds the base and the example overlay', () => {
    expect(files.map(rel)).toEqual(expect.arrayContaining(['docker/k8s/base/kustomization.yaml', 'docker/k8s/overlays/example/kustomization.yaml']));
  });

  it.each(files.map((file) => [rel(file), file]))('%s: every document parses and validates against the Kubernetes schemas', (_, file) => {
    const documents = readYamlDocuments(file);
    expect(documents.length).toBeGreaterThan(0);
    if (file.endsWith('kustomization.yaml')) {
      readKustomization(join(file, '..'));
      return;
    }
    documents.forEach((document, i) => validateResource(document, `${rel(file)} document ${i + 1}`));
  });

  it('rejects an unknown kind and an invalid object (the check is not vacuous)', () => {
    expect(() => validateResource({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }, 'x')).toThrow(/unknown/);
    expect(() => validateResource({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'two' } }, 'x')).toThrow(
      /does not validate/,
    );
    expect(() => validateResource({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: {} } }, 'x')).toThrow(
      /does not validate/,
    ); // selector is required
  });

  describe.each([
    ['base', BASE_DIR],
    ['overlays/example', OVERLAY_DIR],
  ])('kustomize build %s (rendered by test/deploy)', (_, dir) => {
    const rendered = renderKustomization(dir);

    it('lists only existing files, patches only existing resources, and renders valid objects', () => {
      // renderKustomization throws on a missing resource file, a patch that targets nothing, or an
      // image override that matches no container; every rendered (and patched) object is validated.
      expect(rendered.resources.length).toBeGreaterThan(10);
      rendered.resources.forEach((r) => validateResource(r, `rendered ${r.kind}/${r.metadata.name}`));
    });

    it('labels every object app.kubernetes.io/{name,part-of,component}', () => {
      for (const r of rendered.resources.filter((x) => x.kind !== 'Namespace')) {
        expect({ id: `${r.kind}/${r.metadata.name}`, labels: r.metadata.labels }).toEqual({
          id: `${r.kind}/${r.metadata.name}`,
          labels: expect.objectContaining({
            'app.kubernetes.io/name': expect.any(String),
            'app.kubernetes.io/part-of': PART_OF,
            'app.kubernetes.io/component': expect.any(String),
          }),
        });
      }
      for (const r of rendered.resources.filter((x) => ['Deployment', 'Job', 'CronJob'].includes(x.kind))) {
        expect(podLabels(r)).toEqual(r.metadata.labels);
        if (r.kind === 'CronJob') expect(r.spec.jobTemplate.metadata.labels).toEqual(r.metadata.labels);
      }
    });

    it('never contains the Secret (it comes from a secret manager)', () => {
      expect(rendered.resources.filter((r) => r.kind === 'Secret')).toEqual([]);
    });
  });

  describe('files outside the kustomizations', () => {
    const used = new Set<string>();
    for (const dir of [BASE_DIR, OVERLAY_DIR]) renderKustomization(dir).files.forEach((f) => used.add(f));
    /** What docs/operations.md applies with `kubectl apply -f` that no kustomization renders: the support shell. */
    const standalone = operationsDocAppliedFiles().filter((file) => !used.has(join(ROOT, file)));

    it('are the *.example.yaml documentation and the manifests docs/operations.md applies alone', () => {
      expect(standalone).toEqual(['docker/k8s/support/support-shell.yaml']);
      const unused = files.filter((f) => !used.has(f)).map(rel);
      expect(unused.sort()).toEqual(['docker/k8s/base/platform-secrets.example.yaml', ...standalone].sort());
    });

    it.each(standalone)('%s, applied alone, is labelled as the kustomizations label, and namespaced by `kubectl -n`', (file) => {
      for (const r of readYamlDocuments(join(ROOT, file)) as Resource[]) {
        expect(r.metadata.namespace).toBeUndefined();
        expect(r.metadata.labels).toEqual(
          expect.objectContaining({
            'app.kubernetes.io/name': r.metadata.name,
            'app.kubernetes.io/part-of': PART_OF,
            'app.kubernetes.io/component': expect.any(String),
          }),
        );
      }
    });
  });

  describe('the example overlay', () => {
    const base = renderKustomization(BASE_DIR).resources;
    const overlay = renderKustomization(OVERLAY_DIR).resources;
    const find = (resources: Resource[], kind: string, name: string) => {
      const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
      if (!found) throw new Error(`no ${kind}/${name}`);
      return found;
    };

    it('puts every namespaced object in its namespace, which it defines', () => {
      const namespace = readKustomization(OVERLAY_DIR).namespace;
      expect(namespace).toBeTruthy();
      expect(find(overlay, 'Namespace', namespace as string)).toBeDefined();
      for (const r of overlay.filter((x) => x.kind !== 'Namespace')) expect(r.metadata.namespace).toBe(namespace);
    });

    it('pins every image to a registry and tag, and the migration job to the apps’ release', () => {
      const images = overlay.flatMap((r) => podContainers(r).map((c) => c.image as string));
      expect(images.length).toBeGreaterThanOrEqual(4);
      for (const image of images) expect(image).toMatch(/^registry\.example\.com\/bot-platform\/[a-z-]+:\d+\.\d+\.\d+$/);
      const tags = new Set(images.map((image) => splitImage(image).tag));
      expect(tags.size).toBe(1);
    });

    it('tunes the autoscalers and the configuration, introducing no ConfigMap key the base lacks', () => {
      const hpa = find(overlay, 'HorizontalPodAutoscaler', 'transactional-service');
      expect(hpa.spec.minReplicas).toBeGreaterThan(find(base, 'HorizontalPodAutoscaler', 'transactional-service').spec.minReplicas);
      expect(hpa.spec.metrics).toEqual(find(base, 'HorizontalPodAutoscaler', 'transactional-service').spec.metrics);
      const config = find(overlay, 'ConfigMap', 'platform-config').data;
      expect(config).not.toEqual(find(base, 'ConfigMap', 'platform-config').data);
      expect(Object.keys(config).sort()).toEqual(Object.keys(find(base, 'ConfigMap', 'platform-config').data).sort());
      // Production publishes its API documents with the release, not on its public routes.
      expect(find(base, 'ConfigMap', 'platform-config').data.API_DOCS).toBe('on');
      expect(config.API_DOCS).toBe('off');
    });

    it('gives the ingress a host and TLS', () => {
      const ingress = find(overlay, 'Ingress', 'bot-platform');
      expect(ingress.spec.rules.every((rule: { host?: string }) => !!rule.host)).toBe(true);
      expect(ingress.spec.tls?.[0]?.hosts).toEqual(ingress.spec.rules.map((rule: { host: string }) => rule.host));
    });
  });
});

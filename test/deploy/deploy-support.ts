/**
 * Shared by the deployment tests: reading the manifests under docker/k8s, validating them with
 * kubernetes-models, rendering a kustomization the way kustomize would (the subset this repository
 * uses: resources, namespace, images, strategic-merge and JSON 6902 patches; anything else fails
 * loudly), evaluating label selectors and NetworkPolicies, reading .env.example and the Dockerfile.
 */
import dockerignore from '@balena/dockerignore';
import { DockerfileParser, Flag } from 'dockerfile-ast';
import { applyPatch as applyOperations, Operation } from 'fast-json-patch';
import ipaddr from 'ipaddr.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Pod, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';

export const ROOT = resolve(__dirname, '..', '..');
export const K8S_DIR = join(ROOT, 'docker', 'k8s');
export const BASE_DIR = join(K8S_DIR, 'base');
export const OVERLAY_DIR = join(K8S_DIR, 'overlays', 'example');

export const PART_OF = 'bot-platform';
export const SUPPORT_TOOLING_LABEL = 'platform.example.com/support-tooling';
export const INGRESS_NAMESPACE = 'ingress-nginx';
export const MONITORING_NAMESPACE = 'monitoring';
/** The variables that are secrets: always from the Secret `platform-secrets`, never a ConfigMap or a literal. */
export const SECRET_VARIABLES = ['DATABASE_URL', 'DATABASE_READ_URLS', 'AUTH_JWT_SECRET', 'SECRETS_KEY', 'SECRETS_KEY_PREVIOUS', 'REDIS_URL', 'NATS_URL'];
/** Secrets an app cannot start without in production (the others are optional refs). */
export const REQUIRED_SECRET_VARIABLES = ['DATABASE_URL', 'SECRETS_KEY'];

// ---------------------------------------------------------------------------------------------
// Resources and validation

export type Json = any;

export interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: Json;
}

interface ModelClass {
  new (data?: Json): { validate(): void };
}

/** apiVersion/kind → kubernetes-models class. Any other kind is an error (add it here deliberately). */
export const MODELS: Record<string, ModelClass> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Pod': Pod,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

const CLUSTER_SCOPED_KINDS = new Set(['Namespace']);

/** Throws with the resource's identity and the schema's complaint. */
export function validateResource(resource: Json, where: string): void {
  if (!resource || typeof resource !== 'object' || Array.isArray(resource)) {
    throw new Error(`${where}: a Kubernetes resource must be a mapping`);
  }
  const key = `${resource.apiVersion}/${resource.kind}`;
  const Model = MODELS[key];
  if (!Model) throw new Error(`${where}: unknown apiVersion/kind ${key} (not one of ${Object.keys(MODELS).join(', ')})`);
  if (typeof resource.metadata?.name !== 'string' || resource.metadata.name === '') {
    throw new Error(`${where}: ${key} has no metadata.name`);
  }
  try {
    new Model(resource).validate();
  } catch (error) {
    throw new Error(`${where}: ${key} ${resource.metadata.name} does not validate: ${String(error)}`, { cause: error });
  }
}

/** Every document of a YAML file; a syntax error, a warning or an empty document throws. */
export function readYamlDocuments(file: string): Json[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  if (!Array.isArray(documents)) return [];
  return documents.map((document, index) => {
    const problems = [...document.errors, ...document.warnings];
    if (problems.length > 0) throw new Error(`${rel(file)} document ${index + 1}: ${problems.map(String).join('; ')}`);
    const value = document.toJS();
    if (value === null || value === undefined) throw new Error(`${rel(file)} document ${index + 1} is empty`);
    return value;
  });
}

export function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(entry) ? [path] : [];
  });
}

export function rel(path: string): string {
  return relative(ROOT, path);
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// ---------------------------------------------------------------------------------------------
// A kustomize renderer for the features this repository uses

export const KUSTOMIZATION_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);

export interface Kustomization {
  apiVersion: string;
  kind: string;
  resources?: string[];
  namespace?: string;
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  patches?: { path?: string; patch?: string; target?: PatchTarget }[];
}

interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

export interface Rendered {
  resources: Resource[];
  /** Every file the render read, resources and patches (to find files nothing uses). */
  files: Set<string>;
}

export function readKustomization(dir: string): Kustomization {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${rel(dir)} has no kustomization.yaml`);
  const documents = readYamlDocuments(file);
  if (documents.length !== 1) throw new Error(`${rel(file)} must hold one document`);
  const k = documents[0] as Kustomization;
  if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization') {
    throw new Error(`${rel(file)}: expected apiVersion kustomize.config.k8s.io/v1beta1, kind Kustomization`);
  }
  const unsupported = Object.keys(k).filter((field) => !KUSTOMIZATION_FIELDS.has(field));
  if (unsupported.length > 0) {
    throw new Error(`${rel(file)}: ${unsupported.join(', ')} not understood by test/deploy's renderer: teach it, or the tests prove nothing`);
  }
  return k;
}

/** Renders `dir`'s kustomization: the resources kustomize would output, in order. */
export function renderKustomization(dir: string): Rendered {
  const k = readKustomization(dir);
  const files = new Set<string>([join(dir, 'kustomization.yaml')]);
  let resources: Resource[] = [];

  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    if (!existsSync(path)) throw new Error(`${rel(dir)}/kustomization.yaml lists ${entry}, which does not exist`);
    if (statSync(path).isDirectory()) {
      const child = renderKustomization(path);
      resources.push(...child.resources);
      child.files.forEach((file) => files.add(file));
    } else {
      files.add(path);
      readYamlDocuments(path).forEach((doc, i) => {
        validateResource(doc, `${rel(path)} document ${i + 1}`);
        resources.push(doc as Resource);
      });
    }
  }
  const seen = new Set<string>();
  for (const r of resources) {
    const id = identity(r);
    if (seen.has(id)) throw new Error(`${rel(dir)}: ${id} is defined twice`);
    seen.add(id);
  }

  for (const [index, entry] of (k.patches ?? []).entries()) {
    const where = `${rel(dir)}/kustomization.yaml patches[${index}]`;
    let patch: Json;
    if (entry.path !== undefined) {
      const path = resolve(dir, entry.path);
      if (!existsSync(path)) throw new Error(`${where}: ${entry.path} does not exist`);
      files.add(path);
      const docs = readYamlDocuments(path);
      if (docs.length !== 1) throw new Error(`${where}: ${entry.path} must hold exactly one patch`);
      patch = docs[0];
    } else if (entry.patch !== undefined) {
      const docs = parseAllDocuments(entry.patch);
      if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length > 0) throw new Error(`${where}: the inline patch does not parse`);
      patch = docs[0].toJS();
    } else {
      throw new Error(`${where}: neither path nor patch`);
    }
    resources = applyPatch(resources, patch, entry.target, where);
  }

  for (const image of k.images ?? []) {
    let used = 0;
    for (const r of resources) {
      for (const container of podContainers(r)) {
        const { name, tag } = splitImage(container.image);
        if (name !== image.name) continue;
        used++;
        const newTag = image.digest ? `@${image.digest}` : image.newTag !== undefined ? `:${image.newTag}` : tag;
        container.image = `${image.newName ?? name}${newTag}`;
      }
    }
    if (used === 0) throw new Error(`${rel(dir)}/kustomization.yaml images: ${image.name} is used by no container`);
  }

  if (k.namespace) {
    for (const r of resources) {
      if (CLUSTER_SCOPED_KINDS.has(r.kind)) continue;
      r.metadata.namespace = k.namespace;
    }
  }
  return { resources, files };
}

export function identity(r: Resource): string {
  return `${r.kind}/${r.metadata.namespace ? `${r.metadata.namespace}/` : ''}${r.metadata.name}`;
}

function applyPatch(resources: Resource[], patch: Json, target: PatchTarget | undefined, where: string): Resource[] {
  const json6902 = Array.isArray(patch);
  if (json6902 && !target) throw new Error(`${where}: a JSON 6902 patch needs a target`);
  const selector: PatchTarget = target ?? {
    kind: patch.kind,
    name: patch.metadata?.name,
    group: String(patch.apiVersion ?? '').includes('/') ? patch.apiVersion.split('/')[0] : '',
    version: String(patch.apiVersion ?? '')
      .split('/')
      .pop(),
  };
  if (!selector.kind || !selector.name) throw new Error(`${where}: the patch names no kind and name to patch`);
  const matches = resources.filter((r) => targets(r, selector));
  if (matches.length === 0) {
    throw new Error(`${where}: targets ${JSON.stringify(selector)}, which no resource of the kustomization matches`);
  }
  return resources.map((r) => {
    if (!matches.includes(r)) return r;
    const patched = json6902 ? applyJsonPatch(r, patch, where) : strategicMerge(r, patch, where);
    validateResource(patched, `${where} applied to ${identity(r)}`);
    return patched as Resource;
  });
}

function targets(r: Resource, t: PatchTarget): boolean {
  const [group, version] = r.apiVersion.includes('/') ? r.apiVersion.split('/') : ['', r.apiVersion];
  return (
    (t.kind === undefined || t.kind === r.kind) &&
    (t.name === undefined || t.name === r.metadata.name) &&
    (t.group === undefined || t.group === group) &&
    (t.version === undefined || t.version === version) &&
    (t.namespace === undefined || t.namespace === r.metadata.namespace)
  );
}

/** List merge keys of the strategic merge patch for the lists this repository uses. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

export function strategicMerge(target: Json, patch: Json, where: string, key = ''): Json {
  if (isPlainObject(patch)) {
    if ('$patch' in patch || Object.keys(patch).some((k) => k.startsWith('$'))) {
      throw new Error(`${where}: strategic-merge directives ($patch, …) are not understood by test/deploy's renderer`);
    }
    const result: Json = isPlainObject(target) ? clone(target) : {};
    for (const [k, value] of Object.entries(patch)) {
      if (value === null) delete result[k];
      else result[k] = strategicMerge(result[k], value, where, k);
    }
    return result;
  }
  if (Array.isArray(patch) && Array.isArray(target) && MERGE_KEYS[key]) {
    const mergeKey = MERGE_KEYS[key];
    const result = clone(target);
    for (const item of patch) {
      const index = result.findIndex((existing: Json) => existing?.[mergeKey] === item?.[mergeKey]);
      if (index >= 0) result[index] = strategicMerge(result[index], item, where);
      else result.push(clone(item));
    }
    return result;
  }
  return clone(patch);
}

/** RFC 6902, by fast-json-patch (operations validated; a failed test or a missing path throws). */
export function applyJsonPatch(document: Json, operations: Json[], where: string): Json {
  try {
    return applyOperations(clone(document), operations as Operation[], true).newDocument;
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}

function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function splitImage(image: string): { name: string; tag: string } {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), tag: image.slice(at) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) return { name: image.slice(0, colon), tag: image.slice(colon) };
  return { name: image, tag: '' };
}

// ---------------------------------------------------------------------------------------------
// Pods, selectors, network policies

/** The pod a resource is or makes: a Pod itself, a Deployment's or Job's template, a CronJob's job's template. */
export function podTemplate(r: Resource): { metadata: Json; spec: Json } | undefined {
  if (r.kind === 'Pod') return { metadata: r.metadata, spec: r.spec };
  if (r.kind === 'Deployment' || r.kind === 'Job') return r.spec?.template;
  if (r.kind === 'CronJob') return r.spec?.jobTemplate?.spec?.template;
  return undefined;
}

export function podSpec(r: Resource): Json | undefined {
  return podTemplate(r)?.spec;
}

export function podLabels(r: Resource): Record<string, string> {
  return podTemplate(r)?.metadata?.labels ?? {};
}

export function podContainers(r: Resource): Json[] {
  const spec = podSpec(r);
  return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Kubernetes label-selector semantics; `{}` selects everything. */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(labels[e.key])
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(labels[e.key])
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

export interface PeerPod {
  namespace: string;
  namespaceLabels: Record<string, string>;
  labels: Record<string, string>;
}

export function peerPod(namespace: string, labels: Record<string, string>, namespaceLabels: Record<string, string> = {}): PeerPod {
  return { namespace, labels, namespaceLabels: { 'kubernetes.io/metadata.name': namespace, ...namespaceLabels } };
}

/** Does one `from` peer of a policy living in `policyNamespace` admit `source`? ipBlock admits anything. */
export function peerAdmits(peer: Json, policyNamespace: string, source: PeerPod): boolean {
  if (peer.ipBlock) return true;
  if (peer.namespaceSelector) {
    return selects(peer.namespaceSelector, source.namespaceLabels) && (!peer.podSelector || selects(peer.podSelector, source.labels));
  }
  return source.namespace === policyNamespace && selects(peer.podSelector, source.labels);
}

function portMatches(rulePorts: Json[] | undefined, port: number, containerPorts: Json[]): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => {
    if ((p.protocol ?? 'TCP') !== 'TCP') return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') return containerPorts.some((c) => c.name === p.port && c.containerPort === port);
    return p.endPort ? port >= p.port && port <= p.endPort : p.port === port;
  });
}

/**
 * Kubernetes semantics for one direction of a pod labelled `labels` in `namespace`: not isolated when no policy
 * selects it for that direction, else allowed when one rule of one selecting policy admits the connection. Without
 * policyTypes a policy is an Ingress policy, and an Egress one too when it has egress rules (the API server's
 * defaulting).
 */
function policiesAllow(
  policies: Resource[],
  namespace: string,
  labels: Record<string, string>,
  direction: 'Ingress' | 'Egress',
  ruleAdmits: (rule: Json) => boolean,
): boolean {
  const selecting = policies.filter(
    (p) =>
      p.kind === 'NetworkPolicy' &&
      (p.metadata.namespace ?? namespace) === namespace &&
      selects(p.spec.podSelector, labels) &&
      (p.spec.policyTypes ?? (p.spec.egress ? ['Ingress', 'Egress'] : ['Ingress'])).includes(direction),
  );
  if (selecting.length === 0) return true;
  return selecting.some((policy) => ((direction === 'Ingress' ? policy.spec.ingress : policy.spec.egress) ?? []).some(ruleAdmits));
}

/** A rule's peers admit anything when it lists none. */
function anyPeer(peers: Json[] | undefined, admits: (peer: Json) => boolean): boolean {
  return !peers || peers.length === 0 || peers.some(admits);
}

/**
 * May `source` open a TCP connection to `port` of a pod labelled `targetLabels` in `namespace`?
 * Kubernetes semantics: isolated when any Ingress policy selects the pod; then allowed when one rule
 * of one selecting policy admits the peer and the port.
 */
export function networkAllows(
  policies: Resource[],
  namespace: string,
  targetLabels: Record<string, string>,
  containerPorts: Json[],
  source: PeerPod,
  port: number,
): boolean {
  return policiesAllow(
    policies,
    namespace,
    targetLabels,
    'Ingress',
    (rule) => portMatches(rule.ports, port, containerPorts) && anyPeer(rule.from, (peer) => peerAdmits(peer, namespace, source)),
  );
}

/** A pod a policy's egress rule may admit: its labels and namespace's, and its address (classified, never dialled). */
export interface DestinationPod extends PeerPod {
  address: string;
}

/** Is `address` in the ipBlock's CIDR and in none of its exceptions? Pure classification: nothing connects. */
export function ipBlockHolds(block: { cidr: string; except?: string[] }, address: string): boolean {
  const ip = ipaddr.parse(address);
  const inRange = (cidr: string) => {
    const [range, bits] = ipaddr.parseCIDR(cidr);
    return range.kind() === ip.kind() && ip.match(range, bits);
  };
  return inRange(block.cidr) && !(block.except ?? []).some(inRange);
}

function egressPortMatches(rulePorts: Json[] | undefined, port: number, protocol: 'TCP' | 'UDP'): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') throw new Error(`egress to a named port (${p.port}) is not understood by test/deploy`);
    return p.endPort ? port >= p.port && port <= p.endPort : p.port === port;
  });
}

/**
 * May a pod labelled `sourceLabels` in `namespace` open a connection to `destination` on `port`? A rule admits the
 * destination by its labels and its namespace's, or by its address for an ipBlock.
 */
export function egressAllows(
  policies: Resource[],
  namespace: string,
  sourceLabels: Record<string, string>,
  destination: DestinationPod,
  port: number,
  protocol: 'TCP' | 'UDP' = 'TCP',
): boolean {
  return policiesAllow(
    policies,
    namespace,
    sourceLabels,
    'Egress',
    (rule) =>
      egressPortMatches(rule.ports, port, protocol) &&
      anyPeer(rule.to, (peer) => (peer.ipBlock ? ipBlockHolds(peer.ipBlock, destination.address) : peerAdmits(peer, namespace, destination))),
  );
}

// ---------------------------------------------------------------------------------------------
// Environment variables

/** Every variable of .env.example, set or commented out (`# NAME=…`). */
export function envExampleVariables(): string[] {
  const names = readFileSync(join(ROOT, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => !!name);
  return [...new Set(names)];
}

/**
 * The environment a container receives, with ConfigMap and Secret refs resolved from the given data
 * (optional refs to missing keys are left unset, as the kubelet does; required ones throw).
 */
export function resolveContainerEnv(
  container: Json,
  configMaps: Record<string, Record<string, string>>,
  secrets: Record<string, Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (container.envFrom) throw new Error(`${container.name}: envFrom is not used here (every variable is listed)`);
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = String(variable.value);
      continue;
    }
    const ref = variable.valueFrom?.configMapKeyRef ?? variable.valueFrom?.secretKeyRef;
    const source = variable.valueFrom?.configMapKeyRef ? configMaps : secrets;
    if (!ref) throw new Error(`${container.name}: ${variable.name} has neither a value nor a ConfigMap/Secret ref`);
    const value = source[ref.name]?.[ref.key];
    if (value === undefined) {
      if (ref.optional) continue;
      throw new Error(`${container.name}: ${variable.name} refers to ${ref.name}/${ref.key}, which is missing`);
    }
    env[variable.name] = value;
  }
  return env;
}

export function configMapData(resources: Resource[], name: string): Record<string, string> {
  const cm = resources.find((r) => r.kind === 'ConfigMap' && r.metadata.name === name);
  if (!cm) throw new Error(`no ConfigMap ${name}`);
  return cm.data ?? {};
}

export function secretExampleData(): Record<string, string> {
  const [secret] = readYamlDocuments(join(BASE_DIR, 'platform-secrets.example.yaml'));
  const decoded = Object.fromEntries(
    Object.entries((secret.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );
  return { ...decoded, ...(secret.stringData ?? {}) };
}

// ---------------------------------------------------------------------------------------------
// Dockerfile

export interface DockerInstruction {
  keyword: string;
  args: string;
  line: number;
}

export interface DockerStage {
  index: number;
  name?: string;
  /** The FROM argument as written, and with the global ARG defaults substituted. */
  from: string;
  resolvedFrom: string;
  instructions: DockerInstruction[];
}

export interface Dockerfile {
  globalArgs: Record<string, string>;
  stages: DockerStage[];
}

/**
 * Parses a Dockerfile with dockerfile-ast (the parser of VS Code's Docker language server): comments and parser
 * directives dropped, continuation lines joined; each instruction's flags (`--from=…`) first, then its arguments.
 */
export function parseDockerfile(text: string): Dockerfile {
  const instructions: DockerInstruction[] = DockerfileParser.parse(text)
    .getInstructions()
    .map((instruction) => {
      const flags = (instruction as { getFlags?: () => Flag[] }).getFlags?.() ?? [];
      const args = [
        ...flags.map((flag) => (flag.getValue() === null ? `--${flag.getName()}` : `--${flag.getName()}=${flag.getValue()}`)),
        ...instruction.getArguments().map((argument) => argument.getValue()),
      ];
      return { keyword: instruction.getKeyword().toUpperCase(), args: args.join(' '), line: instruction.getRange().start.line + 1 };
    });

  const globalArgs: Record<string, string> = {};
  const stages: DockerStage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!m) throw new Error(`Dockerfile line ${instruction.line}: cannot parse FROM ${instruction.args}`);
      stages.push({
        index: stages.length,
        name: m[2]?.toLowerCase(),
        from: m[1],
        resolvedFrom: m[1].replace(/\$\{?(\w+)\}?/g, (_, name: string) => globalArgs[name] ?? ''),
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`Dockerfile line ${instruction.line}: only ARG may precede the first FROM`);
      const [name, value = ''] = instruction.args.split('=');
      globalArgs[name.trim()] = value.trim();
    } else {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

/** A stage and the stages it is built FROM, nearest first. */
export function stageChain(dockerfile: Dockerfile, stage: DockerStage): DockerStage[] {
  const chain = [stage];
  for (;;) {
    const current = chain[chain.length - 1];
    const parent = dockerfile.stages.find((s) => s.name === current.from.toLowerCase() && s.index < current.index);
    if (!parent) return chain;
    chain.push(parent);
  }
}

export function findStage(dockerfile: Dockerfile, name: string): DockerStage {
  const stage = dockerfile.stages.find((s) => s.name === name.toLowerCase() || String(s.index) === name);
  if (!stage) throw new Error(`Dockerfile: no stage ${name}`);
  return stage;
}

export interface DockerCopy {
  from?: string;
  sources: string[];
  destination: string;
}

/** COPY in exec (JSON) or shell form, flags (--from, --chown, …) separated. */
export function parseCopy(args: string): DockerCopy {
  const flags: Record<string, string> = {};
  let rest = args;
  for (let m = /^--(\w[\w-]*)(?:=(\S+))?\s+/.exec(rest); m; m = /^--(\w[\w-]*)(?:=(\S+))?\s+/.exec(rest)) {
    flags[m[1]] = m[2] ?? 'true';
    rest = rest.slice(m[0].length);
  }
  const parts: string[] = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(' ');
  return { from: flags.from, sources: parts.slice(0, -1), destination: parts[parts.length - 1] };
}

export function workdirOf(stage: DockerStage, dockerfile: Dockerfile): string {
  for (const s of stageChain(dockerfile, stage)) {
    const workdirs = s.instructions.filter((i) => i.keyword === 'WORKDIR');
    if (workdirs.length > 0) return workdirs[workdirs.length - 1].args;
  }
  return '/';
}

export function readDockerfile(): Dockerfile {
  return parseDockerfile(readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8'));
}

/** Whether docker build leaves `path` out of the context: @balena/dockerignore, a port of Docker's own matching. */
export function dockerIgnored(path: string, patterns: string[]): boolean {
  return dockerignore().add(patterns).ignores(path);
}

export function readDockerignore(): string[] {
  return readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

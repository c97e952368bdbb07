import { BASE_DIR, clone, Json, podTemplate, renderKustomization, Resource } from './deploy-support';
import { restrictedViolations } from './pod-security';

/** The restricted check refuses what the PodSecurity admission controller refuses (so that its silence means something). */
describe('the restricted Pod Security Standard check (test/deploy/pod-security.ts)', () => {
  // A compliant pod: an app's, as the base's Deployment makes it.
  const compliant = podTemplate(renderKustomization(BASE_DIR).resources.find((r) => r.kind === 'Deployment') as Resource) as Json;
  const violationsWith = (change: (spec: Json, metadata: Json) => void): string[] => {
    const pod = clone(compliant);
    change(pod.spec, pod.metadata);
    return restrictedViolations(pod.metadata, pod.spec);
  };
  const container = (spec: Json) => spec.containers[0];

  it('admits a compliant pod', () => {
    expect(restrictedViolations(compliant.metadata, compliant.spec)).toEqual([]);
    // The same security held by the containers alone: still admitted.
    expect(
      violationsWith((spec) => {
        container(spec).securityContext.seccompProfile = { type: 'RuntimeDefault' };
        delete spec.securityContext;
      }),
    ).toEqual([]);
  });

  it.each<[string, (spec: Json, metadata: Json) => void]>([
    ['Host Namespaces', (spec) => (spec.hostNetwork = true)],
    ['Host Namespaces', (spec) => (spec.hostPID = true)],
    ['Host Namespaces', (spec) => (spec.hostIPC = true)],
    ['HostProcess', (spec) => (spec.securityContext.windowsOptions = { hostProcess: true })],
    ['Privileged Containers', (spec) => (container(spec).securityContext.privileged = true)],
    ['Host Ports', (spec) => (container(spec).ports = [{ containerPort: 8080, hostPort: 8080 }])],
    ['AppArmor', (spec) => (container(spec).securityContext.appArmorProfile = { type: 'Unconfined' })],
    ['AppArmor', (_, metadata) => (metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' })],
    ['SELinux', (spec) => (spec.securityContext.seLinuxOptions = { type: 'spc_t' })],
    ['SELinux', (spec) => (container(spec).securityContext.seLinuxOptions = { user: 'system_u' })],
    ['/proc Mount Type', (spec) => (container(spec).securityContext.procMount = 'Unmasked')],
    ['Sysctls', (spec) => (spec.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '65536' }])],
    ['Volume Types', (spec) => spec.volumes.push({ name: 'host', hostPath: { path: '/' } })],
    ['Volume Types', (spec) => spec.volumes.push({ name: 'nfs', nfs: { server: 'nfs', path: '/' } })],
    ['Privilege Escalation', (spec) => delete container(spec).securityContext.allowPrivilegeEscalation],
    ['Privilege Escalation', (spec) => (container(spec).securityContext.allowPrivilegeEscalation = true)],
    [
      'Running as Non-root',
      (spec) => {
        delete spec.securityContext.runAsNonRoot;
        delete container(spec).securityContext.runAsNonRoot;
      },
    ],
    ['Running as Non-root', (spec) => (container(spec).securityContext.runAsNonRoot = false)],
    ['Running as Non-root user', (spec) => (spec.securityContext.runAsUser = 0)],
    ['Running as Non-root user', (spec) => (container(spec).securityContext.runAsUser = 0)],
    ['Seccomp', (spec) => delete spec.securityContext.seccompProfile],
    ['Seccomp', (spec) => (container(spec).securityContext.seccompProfile = { type: 'Unconfined' })],
    ['Capabilities', (spec) => delete container(spec).securityContext.capabilities],
    ['Capabilities', (spec) => (container(spec).securityContext.capabilities.add = ['NET_ADMIN'])],
    [
      'Capabilities',
      (spec) =>
        (spec.initContainers = [{ ...clone(container(spec)), name: 'init', securityContext: { ...container(spec).securityContext, capabilities: {} } }]),
    ],
  ])('refuses a pod that breaks "%s"', (control, change) => {
    expect(violationsWith(change)).toEqual(expect.arrayContaining([expect.stringContaining(`${control}:`)]));
  });

  it('admits what the profile allows: NET_BIND_SERVICE added, a Localhost seccomp profile, safe sysctls, projected volumes', () => {
    expect(
      violationsWith((spec) => {
        container(spec).securityContext.capabilities.add = ['NET_BIND_SERVICE'];
        spec.securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'profiles/app.json' };
        spec.securityContext.sysctls = [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }];
        spec.volumes.push({ name: 'token', projected: { sources: [] } });
      }),
    ).toEqual([]);
  });
});

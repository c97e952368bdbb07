/**
 * The Pod Security Standards' `restricted` profile (kubernetes.io/docs/concepts/security/pod-security-standards,
 * the `latest` version the example namespace enforces): the baseline controls and the restricted ones, each checked
 * on a pod's metadata and spec as the PodSecurity admission controller checks a Pod. Every rule says which control
 * it is, so a failure names what the admission controller would refuse.
 */
import type { Json } from './deploy-support';

/** Restricted "Volume Types": the only volume sources a pod may use. */
const RESTRICTED_VOLUME_SOURCES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
/** Baseline "Sysctls": the safe set. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
/** Baseline "SELinux": the types a pod may ask for. */
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
const SECCOMP_CONFINED = new Set(['RuntimeDefault', 'Localhost']);
const APPARMOR_CONFINED = new Set(['RuntimeDefault', 'Localhost']);

/** What the PodSecurity admission controller would refuse in a namespace enforcing `restricted`; empty: admitted. */
export function restrictedViolations(metadata: Json, spec: Json): string[] {
  const problems: string[] = [];
  const pod = spec.securityContext ?? {};
  const containers: Json[] = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  const each = (check: (c: Json, sc: Json) => string | undefined) =>
    containers.forEach((c) => {
      const problem = check(c, c.securityContext ?? {});
      if (problem) problems.push(`container ${c.name}: ${problem}`);
    });

  // Baseline
  if (pod.windowsOptions?.hostProcess === true) problems.push('HostProcess: spec.securityContext.windowsOptions.hostProcess');
  each((_, sc) => (sc.windowsOptions?.hostProcess === true ? 'HostProcess: windowsOptions.hostProcess' : undefined));
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) if (spec[field] === true) problems.push(`Host Namespaces: spec.${field}`);
  each((_, sc) => (sc.privileged === true ? 'Privileged Containers: privileged' : undefined));
  each((c) => ((c.ports ?? []).some((p: Json) => (p.hostPort ?? 0) !== 0) ? 'Host Ports: hostPort' : undefined));
  if (pod.appArmorProfile && !APPARMOR_CONFINED.has(pod.appArmorProfile.type)) problems.push('AppArmor: spec.securityContext.appArmorProfile');
  each((_, sc) => (sc.appArmorProfile && !APPARMOR_CONFINED.has(sc.appArmorProfile.type) ? 'AppArmor: appArmorProfile' : undefined));
  for (const [key, value] of Object.entries((metadata?.annotations ?? {}) as Record<string, string>)) {
    if (key.startsWith('container.apparmor.security.beta.kubernetes.io/') && value !== 'runtime/default' && !value.startsWith('localhost/')) {
      problems.push(`AppArmor: annotation ${key}`);
    }
  }
  const seLinuxProblem = (options: Json) =>
    options && (!SELINUX_TYPES.has(options.type ?? '') || (options.user ?? '') !== '' || (options.role ?? '') !== '') ? 'SELinux: seLinuxOptions' : undefined;
  if (seLinuxProblem(pod.seLinuxOptions)) problems.push('SELinux: spec.securityContext.seLinuxOptions');
  each((_, sc) => seLinuxProblem(sc.seLinuxOptions));
  each((_, sc) => (sc.procMount !== undefined && sc.procMount !== 'Default' ? '/proc Mount Type: procMount' : undefined));
  for (const sysctl of pod.sysctls ?? []) if (!SAFE_SYSCTLS.has(sysctl.name)) problems.push(`Sysctls: ${sysctl.name}`);

  // Restricted
  for (const volume of spec.volumes ?? []) {
    const sources = Object.keys(volume).filter((key) => key !== 'name');
    if (sources.some((source) => !RESTRICTED_VOLUME_SOURCES.has(source))) problems.push(`Volume Types: volume ${volume.name} (${sources.join(', ')})`);
  }
  each((_, sc) => (sc.allowPrivilegeEscalation !== false ? 'Privilege Escalation: allowPrivilegeEscalation must be false' : undefined));
  each((_, sc) =>
    sc.runAsNonRoot === false || (sc.runAsNonRoot !== true && pod.runAsNonRoot !== true) ? 'Running as Non-root: runAsNonRoot must be true' : undefined,
  );
  if (pod.runAsNonRoot === false) problems.push('Running as Non-root: spec.securityContext.runAsNonRoot is false');
  if (pod.runAsUser === 0) problems.push('Running as Non-root user: spec.securityContext.runAsUser is 0');
  each((_, sc) => (sc.runAsUser === 0 ? 'Running as Non-root user: runAsUser is 0' : undefined));
  if (pod.seccompProfile && !SECCOMP_CONFINED.has(pod.seccompProfile.type)) problems.push('Seccomp: spec.securityContext.seccompProfile');
  each((_, sc) => {
    const type = sc.seccompProfile?.type ?? pod.seccompProfile?.type;
    return SECCOMP_CONFINED.has(type) ? undefined : 'Seccomp: seccompProfile.type must be RuntimeDefault or Localhost';
  });
  each((_, sc) => {
    const caps = sc.capabilities ?? {};
    if (!(caps.drop ?? []).includes('ALL')) return 'Capabilities: must drop ALL';
    return (caps.add ?? []).some((cap: string) => cap !== 'NET_BIND_SERVICE') ? 'Capabilities: may add NET_BIND_SERVICE only' : undefined;
  });
  return problems;
}

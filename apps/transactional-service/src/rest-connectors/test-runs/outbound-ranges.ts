import ipaddr from 'ipaddr.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Cloud platform addresses that look public (ipaddr.js calls them `unicast`) but answer only the machines of
 * that cloud, on its behalf: refused like a private address, whatever the caller's URL. The rest of the
 * documented metadata and platform addresses are refused already by their range:
 * - link-local 169.254.0.0/16: the instance metadata service of AWS, Azure, GCP, OCI, DigitalOcean, Hetzner,
 *   Linode/Akamai, Vultr, OpenStack and IBM Cloud VPC (169.254.169.254), the AWS DNS resolver (.253), time
 *   (169.254.169.123), ECS task metadata (169.254.170.2) and EKS Pod Identity (169.254.170.23), Tencent
 *   Cloud's metadata (169.254.0.23), Scaleway's (169.254.42.42), OpenStack's fe80::a9fe:a9fe;
 * - carrier-grade NAT 100.64.0.0/10: Alibaba Cloud's metadata (100.100.100.200) and DNS (100.100.2.136);
 * - reserved 192.0.0.0/24: Oracle Cloud Classic's metadata (192.0.0.192);
 * - unique local fc00::/7: the IPv6 metadata of AWS (fd00:ec2::254, and ::253, ::123, ::23), OCI
 *   (fd00:c1::a9fe:a9fe), Linode/Akamai (fd00:a9fe:a9fe::1) and Scaleway (fd00:42::42).
 * Equinix Metal's metadata (metadata.platformequinix.com) is a public name on public addresses that tells
 * a server its own metadata by its source address; it has no fixed address to list here.
 */
export const PLATFORM_RANGES: ReadonlyArray<{ name: string; cidr: string }> = [
  // Azure WireServer: the VM agent's channel, DHCP, DNS and load balancer probes; "a virtual public IP
  // address" of every Azure region and national cloud (learn.microsoft.com, "What is IP address 168.63.129.16?").
  { name: 'azureWireServer', cidr: '168.63.129.16/32' },
  // IBM Cloud service network: its private DNS resolvers (161.26.0.7, .8, .10, .11), NTP and infrastructure
  // management, reachable only from IBM Cloud's private network ("IBM Cloud IP ranges").
  { name: 'ibmCloudServiceNetwork', cidr: '161.26.0.0/16' },
  // IBM Cloud private service endpoints (`*.private.*.cloud.ibm.com`, and infrastructure management's
  // 166.9.0.0/16), on IBM Cloud's private network only.
  { name: 'ibmCloudServiceEndpoints', cidr: '166.8.0.0/14' },
];

export const PLATFORM_CIDRS: ReadonlyArray<{ name: string; range: Cidr }> = PLATFORM_RANGES.map(({ name, cidr }) => ({ name, range: ipaddr.parseCIDR(cidr) }));

/** IPv6 global unicast (RFC 4291 2.4): all IANA has allocated for it. Outside it, all is "Reserved by IETF" but multicast, link-local, unique local. */
export const IPV6_GLOBAL_UNICAST: Cidr = ipaddr.parseCIDR('2000::/3');

/** IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291 2.5.5.1): `::127.0.0.1`, `::a9fe:a9fe`, `::2`. */
export const IPV6_IPV4_COMPATIBLE: Cidr = ipaddr.parseCIDR('::/96');

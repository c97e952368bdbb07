import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Agent } from 'undici';
import { undici } from './undici';

/** Every address a host name resolves to. Injected in tests: no test ever resolves to, or connects outside, loopback. */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A connection the guard refused: the address a host resolved to is not a public unicast one. */
export class BlockedDestinationError extends Error {
  readonly code = 'BLOCKED_DESTINATION';

  constructor(
    readonly hostname: string,
    readonly address: string,
    /** ipaddr.js's name of the address's range: `loopback`, `private`, `linkLocal`, `uniqueLocal`, … */
    readonly range: string,
  ) {
    super(`${hostname} resolves to ${address}, a ${range} address: connector test runs only reach public addresses`);
  }
}

/**
 * Where a connector's outbound call may go (OWASP's SSRF prevention cheat sheet): only to public unicast
 * addresses, unless a range is admitted by name (OUTBOUND_ALLOWED_CIDRS). The check is made on every address
 * the host resolves to, when the connection is made, and the socket then goes to the address that was checked:
 * no second lookup a rebinding name server could answer differently. The URL's text is never trusted: the WHATWG
 * URL parser has already turned `2130706433`, `0x7f000001` and `127.1` into `127.0.0.1`, and IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) is classified as the IPv4 address it carries. Classification is ipaddr.js's `range()`:
 * anything but `unicast` (loopback, private, link-local with the cloud metadata addresses, unique local,
 * carrier-grade NAT, unspecified, multicast, broadcast, reserved, 6to4, Teredo, NAT64, …) is refused.
 */
export class OutboundGuard {
  private readonly allowed: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(
    allowedCidrs: readonly string[] = [],
    private readonly resolve: Resolve = systemResolve,
  ) {
    this.allowed = allowedCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /** The name of the range that makes an address unreachable, or null when a call may go there. */
  refusalOf(address: string): string | null {
    const parsed = ipaddr.process(address);
    if (this.allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return null;
    const range = parsed.range();
    return range === 'unicast' ? null : range;
  }

  /** Every address of the host, each checked; BlockedDestinationError when any is refused. */
  async addressesOf(hostname: string): Promise<string[]> {
    const addresses = isIP(hostname) ? [hostname] : await this.resolve(hostname);
    if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    for (const address of addresses) {
      const range = this.refusalOf(address);
      if (range !== null) throw new BlockedDestinationError(hostname, address, range);
    }
    return addresses;
  }

  /**
   * An undici dispatcher whose every connection is checked at connect time and made to the checked address
   * (TLS still verifies the host name). undici follows no redirect unless told to: a 3xx is an answer.
   */
  dispatcher(options: { connectTimeoutMs: number }): Agent {
    const { Agent, buildConnector } = undici();
    const connect = buildConnector({ timeout: options.connectTimeoutMs });
    return new Agent({
      connect: (target, callback) => {
        this.addressesOf(target.hostname).then(
          ([address]) => connect({ ...target, hostname: address }, callback),
          (error: Error) => callback(error, null),
        );
      },
    });
  }
}

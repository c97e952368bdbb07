import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Agent } from 'undici';
import { IPV6_GLOBAL_UNICAST, IPV6_IPV4_COMPATIBLE, PLATFORM_CIDRS } from './outbound-ranges';
import { undici } from './undici';

/** Every address a host name resolves to. Injected in tests: no test ever resolves to, or connects outside, loopback. */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A socket this process listens on (`server.address()`): `::` or `0.0.0.0` is every address of the machine. */
export interface Listening {
  address: string;
  port: number;
}

/** The addresses of this machine's interfaces (os.networkInterfaces()), loopback included. */
export const systemAddresses = (): string[] => Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));

/** The range name of a refused connection to one of this process's own listening sockets. */
export const OWN_LISTENER = 'ownListener';

/**
 * A connection the guard refused. The message says only that the destination is not public: what a name
 * resolves to, and why that address is refused, would make test runs a DNS oracle of the platform's network
 * (and "this is the platform itself" a map of it). The address and its range stay on the error, for the log.
 */
export class BlockedDestinationError extends Error {
  readonly code = 'BLOCKED_DESTINATION';

  constructor(
    readonly hostname: string,
    /** The refused address; never in the message. */
    readonly address: string,
    /**
     * Why it is refused, never in the message: ipaddr.js's name of its range (`loopback`, `private`, `linkLocal`,
     * `uniqueLocal`, …), `ipv4Compatible` or `reserved` for IPv6 outside 2000::/3, a PLATFORM_RANGES name
     * (`azureWireServer`, …), or OWN_LISTENER.
     */
    readonly range: string,
    /** Outside production, the message names the variable that admits a range. */
    nameTheVariable = false,
  ) {
    super(
      `${hostname} is not a public destination: connector test runs only reach public addresses${nameTheVariable ? ' (OUTBOUND_ALLOWED_CIDRS admits named ranges)' : ''}`,
    );
  }
}

export interface OutboundGuardOptions {
  /** The sockets this process listens on, read at every connection (an HTTP server may start listening late). */
  listening?: () => readonly Listening[];
  /** This machine's addresses, read at every connection; default: os.networkInterfaces(). */
  ownAddresses?: () => readonly string[];
  /** Outside production: BLOCKED_DESTINATION messages name OUTBOUND_ALLOWED_CIDRS. */
  nameTheVariable?: boolean;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * IPv6 text with its dotted IPv4 tail written in hex. ipaddr.js reads `::a.b.c.d` as IPv4-mapped
 * `::ffff:a.b.c.d`; RFC 4291 and every socket read it as IPv4-compatible (`::` and 32 bits), and that is the
 * form getaddrinfo answers for ::/96 (`::127.0.0.1`, `::169.254.169.254`).
 */
const hexTail = (text: string) =>
  text.replace(/:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?=$|%|\/)/, (_all, a: string, b: string, c: string, d: string) => {
    const group = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
    return `:${group(a, b)}:${group(c, d)}`;
  });

/**
 * An address as a socket reads it, IPv4-mapped IPv6 as the IPv4 address it carries. Only what Node takes for
 * an IP address (net.isIP) is parsed: ipaddr.js also reads forms no socket does.
 */
export function parseAddress(address: string): Address {
  if (isIP(address) === 0) throw Object.assign(new Error(`${JSON.stringify(address.slice(0, 60))} is not an IP address`), { code: 'EINVALIDADDRESS' });
  return ipaddr.process(hexTail(address));
}

/** An address as bytes, its family first: `::ffff:127.0.0.1` and `127.0.0.1` (both parsed) are one key. */
const keyOf = (address: Address) => `${address.kind()}:${address.toByteArray().join('.')}`;

/** The key of an address, or null for what is not one (a listener on a pipe, an interface's odd entry). */
const keyOfText = (address: string) => (isIP(address) === 0 ? null : keyOf(parseAddress(address)));

/**
 * Where a connector's outbound call may go (OWASP's SSRF prevention cheat sheet): only to global unicast
 * addresses, unless a range is admitted by name (OUTBOUND_ALLOWED_CIDRS). The check is made on every address
 * the host resolves to, when the connection is made, and the socket then goes to the address that was checked:
 * no second lookup a rebinding name server could answer differently. The URL's text is never trusted: the WHATWG
 * URL parser has already turned `2130706433`, `0x7f000001` and `127.1` into `127.0.0.1`, and IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) is classified as the IPv4 address it carries. IPv4: ipaddr.js's `range()` must be
 * `unicast` (loopback, private, link-local with the cloud metadata addresses, carrier-grade NAT, unspecified,
 * multicast, broadcast, reserved, … are refused), less the public-looking cloud platform addresses
 * (outbound-ranges.ts). IPv6: only 2000::/3, less its special-purpose ranges (ipaddr.js's: documentation,
 * benchmarking, ORCHID, TEREDO, 6to4, 2001::/23, AS112, …); so IPv4-compatible `::a.b.c.d`, NAT64 and the
 * unassigned space are refused. And whatever OUTBOUND_ALLOWED_CIDRS admits, never this process's own listening
 * sockets: the platform does not call itself.
 */
export class OutboundGuard {
  private readonly allowed: Array<[Address, number]>;
  private readonly listening: () => readonly Listening[];
  private readonly ownAddresses: () => readonly string[];
  private readonly nameTheVariable: boolean;

  constructor(
    allowedCidrs: readonly string[] = [],
    private readonly resolve: Resolve = systemResolve,
    options: OutboundGuardOptions = {},
  ) {
    this.allowed = allowedCidrs.map((cidr) => ipaddr.parseCIDR(hexTail(cidr)));
    this.listening = options.listening ?? (() => []);
    this.ownAddresses = options.ownAddresses ?? systemAddresses;
    this.nameTheVariable = options.nameTheVariable ?? false;
  }

  /**
   * The name of the range that makes an address unreachable, or null when a call may go there. With `port`
   * (a connection's), OWN_LISTENER when this process listens there, before anything is admitted.
   */
  refusalOf(address: string, port?: number): string | null {
    const parsed = parseAddress(address);
    if (port !== undefined && this.isOwnListener(parsed, port)) return OWN_LISTENER;
    if (this.allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return null;
    const range = parsed.range();
    if (range !== 'unicast') return range;
    if (parsed.kind() === 'ipv6') {
      if (parsed.match(IPV6_IPV4_COMPATIBLE)) return 'ipv4Compatible';
      if (!parsed.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
      return null;
    }
    return PLATFORM_CIDRS.find(({ range: [network, bits] }) => network.kind() === 'ipv4' && parsed.match(network, bits))?.name ?? null;
  }

  /**
   * Every address of the host, each checked (with `port`, a connection's: this process's own sockets too);
   * BlockedDestinationError when any is refused.
   */
  async addressesOf(hostname: string, port?: number): Promise<string[]> {
    const addresses = isIP(hostname) ? [hostname] : await this.resolve(hostname);
    if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    for (const address of addresses) {
      const range = this.refusalOf(address, port);
      if (range !== null) throw new BlockedDestinationError(hostname, address, range, this.nameTheVariable);
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
        // undici hands on the URL's port as written: '' for the scheme's default.
        const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
        this.addressesOf(target.hostname, port).then(
          ([address]) => connect({ ...target, hostname: address }, callback),
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  /**
   * This process listens on `port` at `address`: at that very address, or at an unspecified one (`::`, `0.0.0.0`)
   * when `address` is one of this machine's (all of 127.0.0.0/8, ::1, the unspecified addresses themselves, and
   * every interface's). Listening addresses and interfaces are read now: they change while the process runs.
   */
  private isOwnListener(address: Address, port: number): boolean {
    const sockets = this.listening().filter((socket) => socket.port === port && isIP(socket.address) !== 0);
    if (sockets.length === 0) return false;
    const key = keyOf(address);
    const own = () => ['loopback', 'unspecified'].includes(address.range()) || this.ownAddresses().some((one) => keyOfText(one) === key);
    return sockets.some((socket) => {
      const listening = parseAddress(socket.address);
      return keyOf(listening) === key || (listening.range() === 'unspecified' && own());
    });
  }
}

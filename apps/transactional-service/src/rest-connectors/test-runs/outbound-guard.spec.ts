import { networkInterfaces } from 'node:os';
import { request } from 'undici';
import { BlockedDestinationError, Listening, OutboundGuard, OWN_LISTENER, Resolve } from './outbound-guard';
import { PLATFORM_RANGES } from './outbound-ranges';
import { farSide, FarSide } from './testing/far-side';

/** The host part of a URL as the WHATWG parser (and so undici) hands it on: brackets off. */
const hostOf = (authority: string) => new URL(`http://${authority}/`).hostname.replace(/^\[|\]$/g, '');

const NOBODY_RESOLVES: Resolve = async (hostname) => {
  throw new Error(`no test resolves ${hostname}`);
};

/** The message of every refusal: it names the host as the caller wrote it, never an address or a range. */
const NOT_PUBLIC = (hostname: string) => `${hostname} is not a public destination: connector test runs only reach public addresses`;

describe(OutboundGuard.name, () => {
  describe('refuses every non-public address, in every spelling', () => {
    const guard = new OutboundGuard([], async (hostname) => (hostname === 'localhost' ? ['127.0.0.1', '::1'] : []));

    it.each([
      ['127.0.0.1', 'loopback'],
      ['localhost', 'loopback'],
      ['[::1]', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['2130706433', 'loopback'],
      ['0x7f000001', 'loopback'],
      ['127.1', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['[::]', 'unspecified'],
    ])('%s (%s)', async (authority, range) => {
      const hostname = hostOf(authority);
      await expect(guard.addressesOf(hostname)).rejects.toMatchObject({ code: 'BLOCKED_DESTINATION', range, message: NOT_PUBLIC(hostname) });
    });

    it.each([
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['fd00:ec2::254', 'uniqueLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['224.0.0.251', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.2.10', 'reserved'],
      ['::ffff:10.0.0.1', 'private'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['2002:a00:1::', '6to4'],
    ])('a host resolving to %s (%s): the resolver is injected, nothing is sent', async (address, range) => {
      const resolving = new OutboundGuard([], async () => [address]);
      await expect(resolving.addressesOf('internal.example')).rejects.toMatchObject({ address, range, message: NOT_PUBLIC('internal.example') });
    });

    it('refuses a host when any of its addresses is refused, not only the first', async () => {
      const guard = new OutboundGuard([], async () => ['93.184.216.34', '10.0.0.5']);
      await expect(guard.addressesOf('mixed.example')).rejects.toBeInstanceOf(BlockedDestinationError);
    });

    it('lets public unicast addresses through (classification only: no connection is made)', async () => {
      const guard = new OutboundGuard([], async () => ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
      await expect(guard.addressesOf('public.example')).resolves.toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    });
  });

  describe('admits only global unicast (classification only: nothing is resolved or sent)', () => {
    const guard = new OutboundGuard([], NOBODY_RESOLVES);

    it.each([
      // IPv4-compatible IPv6 (::/96): ::127.0.0.1, ::169.254.169.254, and the rest of ::/96.
      ['::127.0.0.1', 'ipv4Compatible'],
      ['::7f00:1', 'ipv4Compatible'],
      ['::a9fe:a9fe', 'ipv4Compatible'],
      ['::169.254.169.254', 'ipv4Compatible'],
      ['::2', 'ipv4Compatible'],
      ['::a00:5', 'ipv4Compatible'],
      // Outside 2000::/3: reserved by the IETF, unassigned.
      ['1::1', 'reserved'],
      ['100:0:0:1::1', 'reserved'],
      ['1000::1', 'reserved'],
      ['4000::1', 'reserved'],
      ['8000::1', 'reserved'],
      ['e000::1', 'reserved'],
      ['fec0::1', 'deprecatedSiteLocal'],
      ['5f00::1', 'segmentRouting'],
      ['100::1', 'discard'],
      // NAT64, both prefixes, whatever IPv4 address they embed.
      ['64:ff9b::5db8:d822', 'rfc6052'],
      ['64:ff9b:1::a00:1', 'rfc6052'],
      // 2000::/3's special-purpose ranges (IANA IPv6 Special-Purpose Address Registry).
      ['2001::1', 'teredo'],
      ['2001:1::1', 'reserved'],
      ['2001:1ff::1', 'reserved'],
      ['2001:2::1', 'benchmarking'],
      ['2001:3::1', 'amt'],
      ['2001:4:112::1', 'as112v6'],
      ['2001:10::1', 'deprecatedOrchid'],
      ['2001:20::1', 'orchid2'],
      ['2001:30::1', 'droneRemoteIdProtocolEntityTags'],
      ['2001:db8::1', 'reserved'],
      ['3fff::1', 'reserved'],
      ['2002:5db8:d822::1', '6to4'],
      ['2620:4f:8000::1', 'as112v6'],
      // IPv4-translated (RFC 6145) is not IPv4-mapped: refused as such.
      ['::ffff:0:5db8:d822', 'rfc6145'],
    ])('refuses %s (%s)', (address, range) => {
      expect(guard.refusalOf(address)).toBe(range);
    });

    it.each([
      // The cloud platform addresses that look public.
      ['168.63.129.16', 'azureWireServer'],
      ['::ffff:168.63.129.16', 'azureWireServer'],
      ['161.26.0.10', 'ibmCloudServiceNetwork'],
      ['161.26.255.255', 'ibmCloudServiceNetwork'],
      ['166.9.12.1', 'ibmCloudServiceEndpoints'],
      ['166.11.255.254', 'ibmCloudServiceEndpoints'],
      // The other documented metadata addresses, refused by their range.
      ['169.254.169.254', 'linkLocal'],
      ['169.254.170.2', 'linkLocal'],
      ['169.254.0.23', 'linkLocal'],
      ['169.254.42.42', 'linkLocal'],
      ['100.100.100.200', 'carrierGradeNat'],
      ['192.0.0.192', 'reserved'],
      ['fd00:ec2::254', 'uniqueLocal'],
      ['fd00:c1::a9fe:a9fe', 'uniqueLocal'],
      ['fd00:a9fe:a9fe::1', 'uniqueLocal'],
      ['fd00:42::42', 'uniqueLocal'],
      ['fe80::a9fe:a9fe', 'linkLocal'],
    ])('refuses the cloud platform address %s (%s)', (address, range) => {
      expect(guard.refusalOf(address)).toBe(range);
    });

    it('keeps every public-looking platform range in one list, each named', () => {
      expect(PLATFORM_RANGES.map(({ name }) => name)).toEqual(['azureWireServer', 'ibmCloudServiceNetwork', 'ibmCloudServiceEndpoints']);
      for (const { name, cidr } of PLATFORM_RANGES) expect(guard.refusalOf(cidr.split('/')[0])).toBe(name);
    });

    it.each([
      '93.184.216.34',
      '168.63.129.15',
      '168.63.129.17',
      '161.25.255.255',
      '161.27.0.1',
      '166.7.255.255',
      '166.12.0.1',
      '2606:2800:220:1:248:1893:25c8:1946',
      '2a00:1450:4001::1',
      '2001:200::1',
      '3ffe::1',
      '::ffff:93.184.216.34',
    ])('admits %s', (address) => {
      expect(guard.refusalOf(address)).toBeNull();
    });

    it('reads `::a.b.c.d` as a socket does, IPv4-compatible (ipaddr.js alone reads it as IPv4-mapped)', () => {
      const admittingLoopback = new OutboundGuard(['127.0.0.0/8'], NOBODY_RESOLVES);
      expect(admittingLoopback.refusalOf('::127.0.0.1')).toBe('ipv4Compatible');
      expect(admittingLoopback.refusalOf('::ffff:127.0.0.1')).toBeNull();
      const admittingCompatible = new OutboundGuard(['::127.0.0.0/104'], NOBODY_RESOLVES);
      expect(admittingCompatible.refusalOf('::7f00:1')).toBeNull();
      expect(admittingCompatible.refusalOf('127.0.0.1')).toBe('loopback');
    });

    it.each(['127.1', '0x7f000001', '::0x7f.0.0.1', 'localhost', ''])('takes no answer for an address that Node would not: %j', async (answer) => {
      const guard = new OutboundGuard(['0.0.0.0/0', '::/0'], async () => [answer]);
      await expect(guard.addressesOf('odd.example')).rejects.toMatchObject({ code: 'EINVALIDADDRESS' });
    });

    it('admits what OUTBOUND_ALLOWED_CIDRS names, even outside global unicast', () => {
      const admitting = new OutboundGuard(['::/96', '4000::/16', '168.63.129.16/32'], NOBODY_RESOLVES);
      expect(admitting.refusalOf('::2')).toBeNull();
      expect(admitting.refusalOf('4000::1')).toBeNull();
      expect(admitting.refusalOf('4001::1')).toBe('reserved');
      expect(admitting.refusalOf('168.63.129.16')).toBeNull();
      // An IPv4 range does not admit the IPv4-compatible spelling of its addresses.
      expect(new OutboundGuard(['127.0.0.0/8'], NOBODY_RESOLVES).refusalOf('::127.0.0.1')).toBe('ipv4Compatible');
    });
  });

  describe('the refusal says only that the destination is not public', () => {
    it.each([
      ['internal.example', ['10.0.0.5']],
      ['wire.example', ['168.63.129.16']],
      ['compat.example', ['::a9fe:a9fe']],
      ['mixed.example', ['93.184.216.34', 'fd00:ec2::254']],
    ])('%s: not what it resolves to, nor its range; both stay on the error, for the log', async (hostname, addresses) => {
      const error: BlockedDestinationError = await new OutboundGuard([], async () => addresses).addressesOf(hostname).catch((caught) => caught);
      const refused = addresses[addresses.length - 1];

      expect(error).toBeInstanceOf(BlockedDestinationError);
      expect(error.message).toBe(NOT_PUBLIC(hostname));
      expect(error).toMatchObject({ hostname, address: refused, range: new OutboundGuard([], NOBODY_RESOLVES).refusalOf(refused) });
      expect(error.message).not.toContain(refused);
      expect(error.message).not.toContain(error.range);
    });

    it('outside production, names the variable that admits a range', async () => {
      const guard = new OutboundGuard([], async () => ['10.0.0.5'], { nameTheVariable: true });
      await expect(guard.addressesOf('internal.example')).rejects.toMatchObject({
        message: 'internal.example is not a public destination: connector test runs only reach public addresses (OUTBOUND_ALLOWED_CIDRS admits named ranges)',
        address: '10.0.0.5',
      });
    });
  });

  describe("this process's own listening sockets, whatever OUTBOUND_ALLOWED_CIDRS admits", () => {
    const on =
      (...sockets: Listening[]) =>
      () =>
        sockets;

    it('refuses the port it listens on at that address, in every spelling of it', () => {
      const guard = new OutboundGuard(['127.0.0.0/8', '10.0.0.0/8'], NOBODY_RESOLVES, {
        listening: on({ address: '10.1.2.3', port: 3001 }),
        ownAddresses: () => [],
      });
      expect(guard.refusalOf('10.1.2.3', 3001)).toBe(OWN_LISTENER);
      expect(guard.refusalOf('::ffff:10.1.2.3', 3001)).toBe(OWN_LISTENER);
      expect(guard.refusalOf('::ffff:a01:203', 3001)).toBe(OWN_LISTENER);
      // Another port, another address, or no connection's port: the listener is not there.
      expect(guard.refusalOf('10.1.2.3', 3002)).toBeNull();
      expect(guard.refusalOf('10.1.2.4', 3001)).toBeNull();
      expect(guard.refusalOf('10.1.2.3')).toBeNull();
    });

    it.each(['::', '0.0.0.0'])("listening on %s: refuses that port at every one of this machine's addresses", (unspecified) => {
      const guard = new OutboundGuard(['127.0.0.0/8', '::1/128', '10.0.0.0/8', 'fd00::/8'], NOBODY_RESOLVES, {
        listening: on({ address: unspecified, port: 3001 }),
        ownAddresses: () => ['127.0.0.1', '::1', '10.1.2.3', 'fd00::3', 'fe80::3'],
      });
      for (const own of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '::ffff:127.0.0.3', '10.1.2.3', '::ffff:10.1.2.3', 'fd00::3']) {
        expect([own, guard.refusalOf(own, 3001)]).toEqual([own, OWN_LISTENER]);
      }
      // Not this machine's: admitted as the allowed ranges say.
      expect(guard.refusalOf('10.1.2.4', 3001)).toBeNull();
      expect(guard.refusalOf('fd00::4', 3001)).toBeNull();
      expect(guard.refusalOf('10.1.2.3', 3002)).toBeNull();
    });

    it("reads this machine's addresses from os.networkInterfaces() by default", () => {
      const addresses = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
      const guard = new OutboundGuard(['0.0.0.0/0', '::/0'], NOBODY_RESOLVES, { listening: on({ address: '::', port: 3001 }) });
      for (const address of addresses) expect([address, guard.refusalOf(address, 3001)]).toEqual([address, OWN_LISTENER]);
      expect(guard.refusalOf('93.184.216.34', 3001)).toBeNull();
    });

    it('reads where it listens at every check: a server that starts listening later is refused from then on', () => {
      const sockets: Listening[] = [];
      const guard = new OutboundGuard(['127.0.0.0/8'], NOBODY_RESOLVES, { listening: () => sockets, ownAddresses: () => [] });
      expect(guard.refusalOf('127.0.0.1', 3001)).toBeNull();
      sockets.push({ address: '127.0.0.1', port: 3001 });
      expect(guard.refusalOf('127.0.0.1', 3001)).toBe(OWN_LISTENER);
    });

    it('says no more than for any other refusal', async () => {
      const guard = new OutboundGuard(['10.0.0.0/8'], async () => ['10.1.2.3'], {
        listening: on({ address: '0.0.0.0', port: 443 }),
        ownAddresses: () => ['10.1.2.3'],
        nameTheVariable: true,
      });
      const error: BlockedDestinationError = await guard.addressesOf('platform.example', 443).catch((caught) => caught);
      expect(error).toMatchObject({ address: '10.1.2.3', range: OWN_LISTENER });
      expect(error.message).toBe(`${NOT_PUBLIC('platform.example')} (OUTBOUND_ALLOWED_CIDRS admits named ranges)`);
    });
  });

  describe('OUTBOUND_ALLOWED_CIDRS', () => {
    it('admits exactly the ranges it names', () => {
      const guard = new OutboundGuard(['127.0.0.2/32', 'fd12:3456::/32'], NOBODY_RESOLVES);
      expect(guard.refusalOf('127.0.0.2')).toBeNull();
      expect(guard.refusalOf('::ffff:127.0.0.2')).toBeNull();
      expect(guard.refusalOf('fd12:3456::7')).toBeNull();
      expect(guard.refusalOf('127.0.0.1')).toBe('loopback');
      expect(guard.refusalOf('fd12:3457::7')).toBe('uniqueLocal');
    });
  });

  describe('its dispatcher, on loopback only', () => {
    let admitted: FarSide;
    let forbidden: FarSide;

    beforeEach(async () => {
      admitted = await farSide((_received, res) => res.end('far side'));
      forbidden = await farSide((_received, res) => res.end('ok'), '127.0.0.1');
    });
    afterEach(async () => {
      await admitted.close();
      await forbidden.close();
    });

    it('connects to an admitted address and refuses 127.0.0.1, which receives nothing', async () => {
      const dispatcher = new OutboundGuard(['127.0.0.2/32'], NOBODY_RESOLVES).dispatcher({ connectTimeoutMs: 2_000 });
      const answer = await request(`http://127.0.0.2:${admitted.port}/`, { dispatcher });
      expect(await answer.body.text()).toBe('far side');
      await expect(request(`http://127.0.0.1:${forbidden.port}/`, { dispatcher })).rejects.toBeInstanceOf(BlockedDestinationError);
      await expect(request(`http://0x7f000001:${forbidden.port}/`, { dispatcher })).rejects.toBeInstanceOf(BlockedDestinationError);
      expect(forbidden.connections()).toBe(0);
      await dispatcher.close();
    });

    it('checks at connect time: a name rebound to a refused address never connects', async () => {
      const answers = [['127.0.0.2'], ['127.0.0.1']];
      let lookups = 0;
      const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => answers[Math.min(lookups++, 1)]).dispatcher({ connectTimeoutMs: 2_000 });
      const first = await request(`http://rebinding.test:${admitted.port}/`, { dispatcher, reset: true });
      expect(await first.body.text()).toBe('far side');
      // The same name, a new connection: the name server now answers loopback.
      const refused = await request(`http://rebinding.test:${forbidden.port}/`, { dispatcher, reset: true }).catch((error: BlockedDestinationError) => error);
      expect(refused).toMatchObject({ address: '127.0.0.1', range: 'loopback', message: NOT_PUBLIC('rebinding.test') });
      expect(forbidden.connections()).toBe(0);
      expect(lookups).toBe(2);
      await dispatcher.close();
    });

    it('refuses, at connect time, the port this process listens on, though the address is admitted: nothing arrives', async () => {
      const own = await farSide((_received, res) => res.end('own'), '127.0.0.3');
      const listening: Listening[] = [];
      const dispatcher = new OutboundGuard(['127.0.0.0/8'], NOBODY_RESOLVES, { listening: () => listening, ownAddresses: () => [] }).dispatcher({
        connectTimeoutMs: 2_000,
      });
      try {
        // Not listening yet: admitted.
        expect(await (await request(`http://127.0.0.3:${own.port}/`, { dispatcher, reset: true })).body.text()).toBe('own');
        expect(own.connections()).toBe(1);

        for (const socket of [
          { address: '127.0.0.3', port: own.port },
          { address: '0.0.0.0', port: own.port },
          { address: '::', port: own.port },
        ]) {
          listening.splice(0, listening.length, socket);
          // The URL parser hands on `[::ffff:127.0.0.3]` as `::ffff:7f00:3`: the same address.
          for (const [host, address] of [
            ['127.0.0.3', '127.0.0.3'],
            ['[::ffff:127.0.0.3]', '::ffff:7f00:3'],
          ]) {
            await expect(request(`http://${host}:${own.port}/`, { dispatcher, reset: true })).rejects.toMatchObject({
              code: 'BLOCKED_DESTINATION',
              address,
              range: OWN_LISTENER,
            });
          }
        }
        expect(own.connections()).toBe(1);
        // The same listener does not refuse another port.
        expect(await (await request(`http://127.0.0.2:${admitted.port}/`, { dispatcher, reset: true })).body.text()).toBe('far side');
      } finally {
        await dispatcher.close();
        await own.close();
      }
    });

    it.each([
      ['http', 80],
      ['https', 443],
    ])('%s without a port in the URL: checks the default port, %s', async (scheme, port) => {
      const dispatcher = new OutboundGuard(['127.0.0.0/8'], NOBODY_RESOLVES, {
        listening: () => [{ address: '0.0.0.0', port }],
        ownAddresses: () => [],
      }).dispatcher({ connectTimeoutMs: 2_000 });
      await expect(request(`${scheme}://127.0.0.3/`, { dispatcher })).rejects.toMatchObject({
        code: 'BLOCKED_DESTINATION',
        address: '127.0.0.3',
        range: OWN_LISTENER,
      });
      await dispatcher.close();
    });

    it('follows no redirect: a 3xx towards a refused address is the answer', async () => {
      const redirecting = await farSide((_received, res) => {
        res.statusCode = 302;
        res.setHeader('Location', `http://127.0.0.1:${forbidden.port}/metadata`);
        res.end();
      });
      const dispatcher = new OutboundGuard(['127.0.0.2/32'], NOBODY_RESOLVES).dispatcher({ connectTimeoutMs: 2_000 });
      const answer = await request(`http://127.0.0.2:${redirecting.port}/`, { dispatcher });
      await answer.body.dump();
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe(`http://127.0.0.1:${forbidden.port}/metadata`);
      expect(forbidden.connections()).toBe(0);
      await dispatcher.close();
      await redirecting.close();
    });
  });
});

import { request } from 'undici';
import { BlockedDestinationError, OutboundGuard, Resolve } from './outbound-guard';
import { farSide, FarSide } from './testing/far-side';

/** The host part of a URL as the WHATWG parser (and so undici) hands it on: brackets off. */
const hostOf = (authority: string) => new URL(`http://${authority}/`).hostname.replace(/^\[|\]$/g, '');

const NOBODY_RESOLVES: Resolve = async (hostname) => {
  throw new Error(`no test resolves ${hostname}`);
};

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
      await expect(guard.addressesOf(hostOf(authority))).rejects.toMatchObject({ code: 'BLOCKED_DESTINATION', range });
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
      await expect(resolving.addressesOf('internal.example')).rejects.toMatchObject({ address, range });
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
      await expect(request(`http://rebinding.test:${forbidden.port}/`, { dispatcher, reset: true })).rejects.toMatchObject({ address: '127.0.0.1', range: 'loopback' });
      expect(forbidden.connections()).toBe(0);
      expect(lookups).toBe(2);
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

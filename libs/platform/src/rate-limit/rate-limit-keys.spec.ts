import { clientNetwork } from './rate-limit-keys';

describe(clientNetwork.name, () => {
  it('counts an IPv4 client by its address, however it is written', () => {
    expect(clientNetwork('127.0.0.1')).toBe('127.0.0.1');
    expect(clientNetwork('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(clientNetwork('::FFFF:7f00:1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 client by its /64, so a routed /64 is one budget', () => {
    const network = clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd');

    expect(network).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:2::1')).toBe(network);
    expect(clientNetwork('2001:DB8:1:2:ffff::')).toBe(network);
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(network);
    expect(clientNetwork('::1')).toBe('::/64');
  });

  it('keeps what is not an address as it is', () => {
    expect(clientNetwork(undefined)).toBe('unknown');
    expect(clientNetwork('not:an:address')).toBe('not:an:address');
  });
});

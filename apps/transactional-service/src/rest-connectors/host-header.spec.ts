import { hostHeaderProblems } from './host-header';

describe(hostHeaderProblems.name, () => {
  const url = 'https://api.example.com/v1';
  const problemsWith = (header: string, value: string) =>
    hostHeaderProblems(url, [
      { header: 'Accept', value: '*/*' },
      { header, value },
    ]);
  const elsewhere = (header: string) =>
    `headers.1.value must name the host (and port) of url in ${header}: a front end may route the call by it, and the secret sent with it, to another site`;

  it.each([
    ['Host', 'api.example.com'],
    ['host', 'API.Example.COM:443'],
    ['X-Forwarded-Host', 'api.example.com, api.example.com:443'],
    ['X-Host', ' api.example.com '],
    ['X-Original-Host', 'api.example.com'],
    ['Forwarded', 'for=192.0.2.60;proto=https;host="api.example.com"'],
    ['Forwarded', 'for=192.0.2.60'],
    ['X-Forwarded-Server', 'api.example.com'],
    ['X-HTTP-Host-Override', 'api.example.com:443'],
    ['X-Envoy-Original-Host', 'api.example.com'],
    ['X-Forwarded-For', 'evil.example.net'],
    ['__proto__', 'evil.example.net'],
    ['constructor', 'evil.example.net'],
    ['toString', 'evil.example.net'],
  ])('lets %s: %j through: it names the host of url, or no host', (header, value) => {
    expect(problemsWith(header, value)).toEqual([]);
  });

  it.each([
    ['Host', 'evil.example.net'],
    ['Host', 'api.example.com:8443'],
    ['Host', 'api.example.com:80'],
    ['Host', 'api.example.com.'],
    ['Host', 'api%2Eexample.com'],
    ['Host', 'api.example.com/x'],
    ['Host', 'me@api.example.com'],
    ['Host', 'api.exa\tmple.com'],
    ['Host', ''],
    ['HOST', 'evil.example.net'],
    ['X-Forwarded-Host', 'api.example.com, evil.example.net'],
    ['x-host', 'evil.example.net'],
    ['X-Original-Host', 'evil.example.net'],
    ['Forwarded', 'for=192.0.2.60;host=evil.example.net'],
    ['Forwarded', 'host=api.example.com, host="evil.example.net"'],
    ['Forwarded', 'for="x;host=evil.example.net"'],
    ['X-Forwarded-Server', 'evil.example.net'],
    ['X-HTTP-Host-Override', 'evil.example.net'],
    ['x-envoy-original-host', 'evil.example.net'],
    ['X-Envoy-Original-Dst-Host', '10.0.0.1:8888'],
  ])('refuses %s: %j, which names another host (or not only a host)', (header, value) => {
    expect(problemsWith(header, value)).toEqual([elsewhere(header)]);
  });

  it.each([
    ['X-Original-URL', '/admin/debug'],
    ['X-Rewrite-URL', '/v1'],
    ['x-original-uri', '/v1'],
    ['X-Forwarded-Prefix', '/v1'],
    ['X-Forwarded-Uri', '/v1'],
    ['X-Forwarded-Path', '/v1'],
    ['X-Envoy-Original-Path', '/v1'],
    ['X-Forwarded-Proto', 'https'],
    ['X-Forwarded-Scheme', 'https'],
    ['X-Url-Scheme', 'https'],
    ['X-Forwarded-Ssl', 'on'],
    ['Front-End-Https', 'on'],
    ['X-Forwarded-Port', '443'],
  ])('refuses %s whatever it says (%j): it routes by a path, URL, scheme or port', (header, value) => {
    expect(problemsWith(header, value)).toEqual([
      `headers.1.header ${header} cannot go with a secret: a front end may route the call by it, and the secret sent with it, to another path or site; remove the header`,
    ]);
    expect(hostHeaderProblems('https://{{host}}/x', [{ header, value }])).toHaveLength(1);
  });

  it('refuses a variable in such a header: it could not be checked before it is filled', () => {
    expect(problemsWith('X-Forwarded-Host', '{{tenant}}.example.com')).toEqual([
      "headers.1.value must not hold a {{variable}} in X-Forwarded-Host: it could name another host than url's, and a front end may route the call, and the secret sent with it, there",
    ]);
  });

  it('compares with url as the parser reads it, and lists every header at once', () => {
    const headers = [
      { header: 'Host', value: 'evil.example.net' },
      { header: 'X-Forwarded-Host', value: 'evil.example.net' },
    ];

    expect(hostHeaderProblems('HTTPS:\\\\API.example.com:443/x', [{ header: 'Host', value: 'api.example.com' }])).toEqual([]);
    expect(hostHeaderProblems('http://[::1]:8080/x', [{ header: 'Host', value: '[0:0::1]:8080' }])).toEqual([]);
    expect(hostHeaderProblems(url, headers)).toEqual([
      expect.stringMatching(/^headers\.0\.value .* in Host:/),
      expect.stringMatching(/^headers\.1\.value .* in X-Forwarded-Host:/),
    ]);
  });

  it('has nothing to compare with when url has no readable destination (its own 400 says why)', () => {
    expect(hostHeaderProblems('https://{{host}}/x', [{ header: 'Host', value: 'evil.example.net' }])).toEqual([]);
  });
});

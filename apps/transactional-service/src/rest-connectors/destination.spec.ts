import { destinationOf } from './destination';

describe('destinationOf', () => {
  it.each([
    ['https://api.example.com/v1/weather?q=1', 'https://api.example.com'],
    ['HTTPS://API.Example.com:8443/x', 'https://api.example.com:8443'],
    ['https://user@api.example.com/x', 'https://user@api.example.com'],
    ['http://api.example.com#frag', 'http://api.example.com'],
    ['https://{{host}}/path', 'https://{{host}}'],
  ])('%s goes to %s', (url, destination) => {
    expect(destinationOf(url)).toBe(destination);
  });

  it('tells a change of scheme, port or user info apart', () => {
    const stored = destinationOf('https://api.example.com/a');
    expect(destinationOf('http://api.example.com/a')).not.toBe(stored);
    expect(destinationOf('https://api.example.com:444/a')).not.toBe(stored);
    expect(destinationOf('https://me@api.example.com/a')).not.toBe(stored);
    expect(destinationOf('https://api.example.com/b?c=d')).toBe(stored);
  });

  it('is null without a URL or for one that is not http(s)', () => {
    expect(destinationOf(null)).toBeNull();
    expect(destinationOf(undefined)).toBeNull();
    expect(destinationOf('')).toBeNull();
    expect(destinationOf('ftp://files.example.com/x')).toBeNull();
  });
});

import fc from 'fast-check';
import { destinationOf, hasVariableDestination, sameDestination } from './destination';

/** The parts of a URL that make its destination, as the WHATWG parser (undici's) reads them. */
const partsOf = (url: string) => {
  const { protocol, username, password, host } = new URL(url);
  return { protocol, username, password, host };
};

/** Any case of `text`, picked by `upper`. */
const anyCase = (text: string) =>
  fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

const LABEL = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/);
const USERINFO_TEXT = fc.string({ unit: fc.constantFrom(..."aZ09-._~!$&'()*+,;=%é @"), maxLength: 6 });

/** A destination: scheme, user info, host and port, spelled in no particular way yet. */
const destinationParts = fc.record({
  scheme: fc.constantFrom('http', 'https'),
  userinfo: fc.option(fc.record({ username: USERINFO_TEXT, password: fc.option(USERINFO_TEXT) })),
  host: fc.oneof(
    fc.array(LABEL, { minLength: 1, maxLength: 3 }).map((labels) => [...labels, 'example'].join('.')),
    fc.ipV4(),
    fc.ipV6().map((ip) => `[${ip}]`),
    fc.constantFrom('bücher.example', '0x7f.1', '127.1', 'xn--bcher-kva.example'),
  ),
  port: fc.option(fc.oneof(fc.constantFrom('', '80', '443'), fc.integer({ min: 0, max: 65535 }).map(String))),
});
type DestinationParts = typeof destinationParts extends fc.Arbitrary<infer T> ? T : never;

/** One spelling of `parts`: any case, any run of `/` and `\` after the scheme (none included), any path, query or fragment. */
const spelling = (parts: DestinationParts) =>
  fc
    .record({
      scheme: anyCase(parts.scheme),
      slashes: fc.array(fc.constantFrom('/', '\\'), { maxLength: 4 }).map((run) => run.join('')),
      host: anyCase(parts.host),
      tail: fc.constantFrom('', '/', '/a/b', '?q=1', '#f', '\\x\\y', '/{{path}}?q={{query}}', '#{{fragment}}'),
    })
    .map(({ scheme, slashes, host, tail }) => {
      const userinfo = parts.userinfo === null ? '' : `${parts.userinfo.username}${parts.userinfo.password === null ? '' : `:${parts.userinfo.password}`}@`;
      const port = parts.port === null ? '' : `:${parts.port}`;
      return `${scheme}:${slashes}${userinfo}${host}${port}${tail}`;
    });

const parsesAsHttp = (url: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(url.replaceAll(/\{\{\w+\}\}/g, 'x')).protocol);
  } catch {
    return false;
  }
};

describe(destinationOf.name, () => {
  it('agrees with the WHATWG parser on scheme, user info, host and port, however the URL is spelled', () => {
    const url = destinationParts.chain(spelling).filter(parsesAsHttp);
    fc.assert(
      fc.property(url, (sent) => {
        const expected = partsOf(sent.replaceAll(/\{\{\w+\}\}/g, 'x'));
        const destination = destinationOf(sent);

        expect(destination).not.toBeNull();
        expect(partsOf(destination!)).toEqual(expected);
        const userinfo = expected.username || expected.password ? `${expected.username}${expected.password ? `:${expected.password}` : ''}@` : '';
        expect(destination).toBe(`${expected.protocol}//${userinfo}${expected.host}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells two spellings the same destination exactly when the parser reads the same scheme, user info, host and port', () => {
    const pair = fc.tuple(destinationParts, destinationParts, fc.boolean()).chain(([a, b, same]) => fc.tuple(spelling(a), spelling(same ? a : b)));
    fc.assert(
      fc.property(
        pair.filter(([a, b]) => parsesAsHttp(a) && parsesAsHttp(b)),
        ([a, b]) => {
          const fill = (url: string) => url.replaceAll(/\{\{\w+\}\}/g, 'x');
          expect(sameDestination(a, b)).toBe(JSON.stringify(partsOf(fill(a))) === JSON.stringify(partsOf(fill(b))));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['https://api.example.com/v1/weather?q=1', 'https://api.example.com'],
    ['HTTPS://API.Example.com:8443/x', 'https://api.example.com:8443'],
    ['https://api.example.com:443/x', 'https://api.example.com'],
    ['http://api.example.com:80#frag', 'http://api.example.com'],
    ['https://user@api.example.com/x', 'https://user@api.example.com'],
    ['https://user:@api.example.com/x', 'https://user@api.example.com'],
    ['https://:pw@api.example.com/x', 'https://:pw@api.example.com'],
    ['HTTP:/api.example.com/x', 'http://api.example.com'],
    ['https:api.example.com', 'https://api.example.com'],
    ['https:\\\\api.example.com\\x', 'https://api.example.com'],
    ['https:///api.example.com', 'https://api.example.com'],
    ['https://api.example.com/forecast/{{city}}?key={{key}}#{{f}}', 'https://api.example.com'],
  ])('%s goes to %s', (url, destination) => {
    expect(destinationOf(url)).toBe(destination);
  });

  it.each([
    ['no URL', null],
    ['an empty one', ''],
    ['another scheme', 'ftp://files.example.com/x'],
    ['no URL at all', 'not a url'],
    ['a variable host', 'https://{{host}}/path'],
    ['a variable in the host', 'https://api.{{env}}.example.com/path'],
    ['a variable host without slashes', 'https:{{host}}/path'],
    ['variable user info', 'https://{{user}}@api.example.com/'],
    ['a variable password', 'https://me:{{password}}@api.example.com/'],
    ['a variable port', 'https://api.example.com:{{port}}/'],
    ['a variable scheme', '{{scheme}}://api.example.com/'],
  ])('is null for %s', (_what, url) => {
    expect(destinationOf(url)).toBeNull();
  });
});

describe(sameDestination.name, () => {
  it('tells a change of scheme, port or user info apart, and not a change of path, case or spelling', () => {
    const stored = 'https://api.example.com/a';
    expect(sameDestination('http://api.example.com/a', stored)).toBe(false);
    expect(sameDestination('https://api.example.com:444/a', stored)).toBe(false);
    expect(sameDestination('https://me@api.example.com/a', stored)).toBe(false);
    expect(sameDestination('HTTPS:\\\\API.example.com:443/b?c=d', stored)).toBe(true);
  });

  it('takes destinations as well as URLs: destinationOf gives its own answer back unchanged', () => {
    fc.assert(
      fc.property(destinationParts.chain(spelling).filter(parsesAsHttp), (url) => {
        expect(destinationOf(destinationOf(url))).toBe(destinationOf(url));
        expect(sameDestination(destinationOf(url), url)).toBe(true);
      }),
    );
  });

  it('never takes two destinations it cannot tell for the same', () => {
    expect(sameDestination(null, null)).toBe(false);
    expect(sameDestination('https://{{host}}/', 'https://{{host}}/')).toBe(false);
    expect(sameDestination('ftp://a.example/', 'ftp://a.example/')).toBe(false);
    expect(sameDestination('https://api.example.com/', null)).toBe(false);
  });
});

describe(hasVariableDestination.name, () => {
  it.each([
    ['https://{{host}}/x', true],
    ['https://{{user}}@api.example.com/x', true],
    ['https:{{host}}', true],
    ['https://api-{{env}}.example.com/x', true],
    ['https://api.example.com/{{path}}?q={{q}}#{{f}}', false],
    ['https://api.example.com/x', false],
  ])('%s: %s', (url, expected) => {
    expect(hasVariableDestination(url)).toBe(expected);
  });
});

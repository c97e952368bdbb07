import { canonicalHttpUrl, isHttpUrlWithPlaceholders, withEscapesAsSent } from './http-url.validator';

describe(canonicalHttpUrl.name, () => {
  it.each([
    ['HTTP:/host/x', 'http://host/x'],
    ['https:host', 'https://host'],
    ['https:\\\\host', 'https://host'],
    ['https:///host', 'https://host'],
    ['hTTpS:/\\/\\host:8443/a\\b?c=//d', 'https://host:8443/a\\b?c=//d'],
    ['https://host', 'https://host'],
    ['\u0001 https://host/x \u001f', 'https://host/x'],
    ['HTTPS:{{host}}/{{Path}}?q={{Q}}#{{F}}', 'https://{{host}}/{{Path}}?q={{Q}}#{{F}}'],
    ['https://API.Example.com/Path', 'https://API.Example.com/Path'],
  ])('spells %j as %j', (url, canonical) => {
    expect(canonicalHttpUrl(url)).toBe(canonical);
  });

  it.each(['ftp://host', 'not a url', '', '{{scheme}}://host', 'httpx://host'])('leaves %j as it is', (url) => {
    expect(canonicalHttpUrl(url)).toBe(url);
  });

  it.each(['HTTP:/host/x', 'https:host', 'https:\\\\host\\x', 'https:///host?q', 'HTTPS://User:PW@Host:443/{{p}}'])(
    'changes nothing the WHATWG parser reads in %j',
    (url) => {
      const filled = (text: string) => text.replaceAll('{{p}}', 'x');

      expect(new URL(filled(canonicalHttpUrl(url))).href).toBe(new URL(filled(url)).href);
      expect(isHttpUrlWithPlaceholders(canonicalHttpUrl(url), 2048)).toBe(true);
    },
  );
});

describe(withEscapesAsSent.name, () => {
  it('writes each escaped placeholder as the text it stands for, and leaves placeholders and other braces as they are', () => {
    expect(withEscapesAsSent('\\{{name}} {{v}} \\{{ spaced }} {{1}} \\\\{{x}}')).toBe('{{name}} {{v}} {{ spaced }} {{1}} \\{{x}}');
  });
});

describe(isHttpUrlWithPlaceholders.name, () => {
  it.each([
    ['a variable in the host', 'https://{{host}}/x'],
    ['a variable as the port', 'https://api.example.com:{{port}}/x'],
    ['a connector variable as the base URL', '{{env.BASE_URL}}/v1/charges?id={{id}}'],
    ['a connector variable alone', '{{ env.BASE_URL }}'],
    ['connector variables as scheme, host and port', '{{env.SCHEME}}://{{env.HOST}}:{{env.PORT}}/x'],
  ])('accepts %s', (_what, url) => {
    expect(isHttpUrlWithPlaceholders(url, 2048)).toBe(true);
  });

  it.each([
    ["a caller's variable as the base URL", '{{base}}/v1'],
    ["a caller's variable as the scheme", '{{scheme}}://api.example.com'],
    ['a connector variable after the start', 'x{{env.BASE_URL}}/v1'],
    ['another scheme', 'ftp://{{env.HOST}}/x'],
    ['a space', '{{env.BASE_URL}}/a b'],
  ])('refuses %s', (_what, url) => {
    expect(isHttpUrlWithPlaceholders(url, 2048)).toBe(false);
  });

  it.each(['{{env.BASE_URL}}', '{{env.BASE_URL}}/orders/{{id}}?q={{q}}', '{{ env.api-host }}#top', 'https://{{env.region}}.example.com/x'])(
    "takes %j: an environment's variable may start the URL, standing for its scheme and host",
    (url) => {
      expect(isHttpUrlWithPlaceholders(url, 2048)).toBe(true);
    },
  );
});

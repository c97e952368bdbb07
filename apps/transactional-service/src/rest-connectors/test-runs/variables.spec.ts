import { FILLED_LIMITS, fillTemplate, placeholdersIn, RunEnvironment } from './variables';
import { problemsOf } from '../testing/problems-of';

const TEMPLATE = {
  url: 'https://api.example.com/items/{{id}}?q={{ term }}',
  headers: [{ header: 'X-Tenant', value: '{{tenant}}' }],
  body: '{"name": "{{name}}"}',
};

describe('fillTemplate', () => {
  it('fills the url percent-encoded, the headers and the body as they are', () => {
    expect(fillTemplate(TEMPLATE, { id: '42/../admin', term: 'a b&c', tenant: 'acme', name: 'Ada "the" Countess' })).toEqual({
      url: 'https://api.example.com/items/42%2F..%2Fadmin?q=a%20b%26c',
      oauthUrl: null,
      headers: [{ header: 'X-Tenant', value: 'acme' }],
      body: '{"name": "Ada "the" Countess"}',
      unused: [],
    });
  });

  it('refuses, before building it, a part that its variables would make larger than a test run sends', () => {
    const repeated = '{{a}}'.repeat(13_000);
    expect(
      problemsOf(() =>
        fillTemplate(
          { url: `https://api.example.com/${'{{a}}'.repeat(3)}`, headers: [{ header: 'X-A', value: '{{a}}{{a}}x' }], body: repeated },
          { a: 'é'.repeat(4096) },
        ),
      ),
    ).toEqual([
      `url would be ${24 + 3 * 4096 * 6} characters once its variables are filled in: a test run sends at most ${FILLED_LIMITS.url}`,
      `headers.0.value would be ${2 * 4096 + 1} characters once its variables are filled in: a test run sends at most ${FILLED_LIMITS.headerValue}`,
      `body would be ${13_000 * 4096} characters once its variables are filled in: a test run sends at most ${FILLED_LIMITS.body}`,
    ]);
  });

  it("sends a secret header's value as written: no variable is filled in it, nor asked for", () => {
    const template = { url: 'https://api.example.com/x', headers: [{ header: 'X-Api-Key', value: 'k-{{id}}', secret: true }], body: '' };

    expect(fillTemplate(template, {})).toMatchObject({ headers: [{ header: 'X-Api-Key', value: 'k-{{id}}', secret: true }], unused: [] });
    expect(fillTemplate(template, { id: '1' }).unused).toEqual(['id']);
  });

  it('names the variables that stand nowhere in the connector', () => {
    expect(fillTemplate(TEMPLATE, { id: '1', term: 't', tenant: 'a', name: 'n', lang: 'pt', extra: 'x' }).unused).toEqual(['lang', 'extra']);
  });

  describe('a JSON body', () => {
    const json = (body: string, variables: Record<string, string>) =>
      fillTemplate({ url: 'https://api.example.com/', headers: [], body }, variables, 'json').body;

    it('JSON-escapes a value where it stands inside a string, so that it stays one string', () => {
      const body = json('{"name": "{{name}}", "note": "said: {{name}}!"}', { name: 'Ada "the" \\ Countess\n' });
      expect(JSON.parse(body)).toEqual({ name: 'Ada "the" \\ Countess\n', note: 'said: Ada "the" \\ Countess\n!' });
    });

    it('fills a value as written where it stands outside a string: a number, a literal, a whole value', () => {
      expect(
        JSON.parse(json('{"n": {{count}}, "ok": {{ok}}, "tags": {{tags}}, "s": "\\"{{q}}\\""}', { count: '42', ok: 'true', tags: '["a","b"]', q: 'x"y' })),
      ).toEqual({
        n: 42,
        ok: true,
        tags: ['a', 'b'],
        s: '"x"y"',
      });
    });

    it('is refused before sending when it is not JSON once filled, saying what to fix', () => {
      expect(problemsOf(() => json('{"n": {{count}}}', { count: 'forty-two' }))).toEqual([
        expect.stringMatching(
          /^body is not valid JSON once its variables are filled in \(.+\): fix the body, or choose another contentType than APPLICATION_JSON$/,
        ),
      ]);
    });

    it('may be empty', () => {
      expect(json('', {})).toBe('');
    });
  });

  describe('a form body (application/x-www-form-urlencoded)', () => {
    const form = (body: string, variables: Record<string, string>) =>
      fillTemplate({ url: 'https://api.example.com/', headers: [], body }, variables, 'form').body;
    const hostile = { email: 'jenny+bot@example.com', name: 'Tom & Jerry&description=injected', note: '100% = "sure"\r\nbye', city: 'São Paulo 東京 🎉' };

    it('form-encodes every value as URLSearchParams does, so each stays one field with its exact text', () => {
      const body = form('customerEmail={{email}}&name={{name}}&note={{note}}&city={{city}}', hostile);

      expect(body).toBe(
        'customerEmail=jenny%2Bbot%40example.com&name=Tom+%26+Jerry%26description%3Dinjected&note=100%25+%3D+%22sure%22%0D%0Abye' +
          '&city=S%C3%A3o+Paulo+%E6%9D%B1%E4%BA%AC+%F0%9F%8E%89',
      );
      expect([...new URLSearchParams(body)]).toEqual([
        ['customerEmail', hostile.email],
        ['name', hostile.name],
        ['note', hostile.note],
        ['city', hostile.city],
      ]);
    });

    it("form-encodes a variable that stands in a name too, and sends the body's own text as written", () => {
      expect(form('{{field}}={{value}}&fixed=a b+c', { field: 'a&b=c', value: 'x y' })).toBe('a%26b%3Dc=x+y&fixed=a b+c');
    });

    it('counts the encoded length before building the body', () => {
      expect(problemsOf(() => form('{{a}}'.repeat(5), { a: '€'.repeat(3000) }))).toEqual([
        `body would be ${5 * 9 * 3000} characters once its variables are filled in: a test run sends at most ${FILLED_LIMITS.body}`,
      ]);
    });
  });

  it('lists every missing variable at once', () => {
    expect(problemsOf(() => fillTemplate(TEMPLATE, { id: '1' }))).toEqual([
      'variables.term is missing: {{term}} appears in the connector',
      'variables.name is missing: {{name}} appears in the connector',
      'variables.tenant is missing: {{tenant}} appears in the connector',
    ]);
  });

  it('never lets a variable smuggle CR, LF or NUL into a header', () => {
    for (const tenant of ['acme\r\nX-Injected: 1', 'acme\n', 'acme\0']) {
      expect(problemsOf(() => fillTemplate(TEMPLATE, { id: '1', term: 't', name: 'n', tenant }))).toEqual([
        'headers.0.value would hold a line break or NUL once its variables are filled in',
      ]);
    }
  });

  it("refuses what the HTTP client cannot send: headers it sets itself, a second Host, characters outside a header's", () => {
    const headers = ['Transfer-Encoding', 'connection', 'Keep-Alive', 'Upgrade', 'Expect', 'Content-Length', 'TE', 'Host', 'host'].map((header) => ({
      header,
      value: 'x',
    }));
    expect(
      problemsOf(() =>
        fillTemplate(
          { url: 'https://api.example.com/', headers: [...headers, { header: 'X-Price', value: '{{price}}' }, { header: 'X-Name', value: 'José' }], body: '' },
          { price: '5 €' },
        ),
      ),
    ).toEqual([
      'headers.0.header Transfer-Encoding is set by the HTTP client: a test run cannot send it',
      'headers.1.header connection is set by the HTTP client: a test run cannot send it',
      'headers.2.header Keep-Alive is set by the HTTP client: a test run cannot send it',
      'headers.3.header Upgrade is set by the HTTP client: a test run cannot send it',
      'headers.4.header Expect is set by the HTTP client: a test run cannot send it',
      'headers.5.header Content-Length is set by the HTTP client: a test run cannot send it',
      'headers.6.header TE is set by the HTTP client: a test run cannot send it',
      'headers.8.header Host may be sent once only',
      'headers.9.value holds a character an HTTP header cannot carry (only printable ASCII, Latin-1, space and tab)',
    ]);
  });

  it('keeps CR and LF out of the URL: they are percent-encoded there', () => {
    expect(fillTemplate(TEMPLATE, { id: '1\r\nHost: evil', term: 't', name: 'n', tenant: 'a' }).url).toBe(
      'https://api.example.com/items/1%0D%0AHost%3A%20evil?q=t',
    );
  });

  it('validates the URL again once filled: a variable cannot make it another scheme or leave it without a host', () => {
    const template = { url: '{{base}}/items', headers: [], body: '' };
    expect(problemsOf(() => fillTemplate(template, { base: 'file:///etc/passwd' }))).toEqual([
      'url is not an absolute http or https URL once its variables are filled in',
    ]);
    expect(fillTemplate({ url: 'https://{{host}}/items', headers: [], body: '' }, { host: 'api.example.com' }).url).toBe('https://api.example.com/items');
  });

  it('a value that itself looks like a placeholder is sent as written, not filled again', () => {
    expect(fillTemplate({ url: 'https://x.example/', headers: [], body: '{{a}}' }, { a: '{{b}}' }).body).toBe('{{b}}');
  });

  it("sends as written what double braces hold that is not a variable's name: a template the far side fills", () => {
    const whatsApp = '{"template": "Flight {{1}} departs at {{2}}", "to": "{{to}}"}';
    const mustache = '{{#items}}<li>{{ name | upcase }}</li>{{/items}} {{{raw}}} {{a b}}';

    expect(fillTemplate({ url: 'https://x.example/', headers: [], body: whatsApp }, { to: '+1 555' }, 'json').body).toBe(
      '{"template": "Flight {{1}} departs at {{2}}", "to": "+1 555"}',
    );
    expect(fillTemplate({ url: 'https://x.example/', headers: [{ header: 'X-T', value: '{{1}}' }], body: mustache }, {})).toMatchObject({
      headers: [{ header: 'X-T', value: '{{1}}' }],
      body: mustache,
      unused: [],
    });
  });
});

describe('an escaped placeholder (\\{{name}})', () => {
  const template = (body: string, headers = [{ header: 'X-T', value: 'Hi \\{{name}}, {{name}}' }]) => ({ url: 'https://x.example/', headers, body });

  it('is sent as the text {{name}}, in a header value and a text, form or JSON body, beside the same placeholder filled', () => {
    expect(fillTemplate(template('\\{{ name }} is {{name}}'), { name: 'Ana' })).toMatchObject({
      headers: [{ header: 'X-T', value: 'Hi {{name}}, Ana' }],
      body: '{{ name }} is Ana',
    });
    expect(fillTemplate(template('n=\\{{name}}&v={{name}}'), { name: 'a b' }, 'form').body).toBe('n={{name}}&v=a+b');
    expect(fillTemplate(template('{"t": "Dear \\{{name}}", "n": "{{name}}"}'), { name: 'A "q"' }, 'json').body).toBe(
      '{"t": "Dear {{name}}", "n": "A \\"q\\""}',
    );
  });

  it('needs no variable, and a backslash before it is always the escape (two send one backslash and the text)', () => {
    expect(fillTemplate(template('\\{{other}} \\\\{{other}}', []), {})).toMatchObject({ body: '{{other}} \\{{other}}', unused: [] });
    expect(placeholdersIn('\\{{a}} {{b}}')).toEqual(['b']);
  });

  it('is refused in a URL, saying to percent-encode the braces there', () => {
    expect(problemsOf(() => fillTemplate({ url: 'https://x.example/\\{{id}}', headers: [], body: '' }, {}))).toEqual([
      'url holds an escaped placeholder (\\{{…}}): in a URL, write literal braces percent-encoded (%7B%7B…%7D%7D)',
    ]);
  });
});

describe('placeholdersIn', () => {
  it('names each placeholder once, in order', () => {
    expect(placeholdersIn('{{a}} {{ b }} {{a}}')).toEqual(['a', 'b']);
  });

  it("names only variables' names: not numbers, sections, filters, names past 64 characters or triple braces", () => {
    expect(placeholdersIn(`{{1}} {{#each}} {{/each}} {{ a | b }} {{${'n'.repeat(65)}}} {{{raw}}} {{_ok}} {"n":{{count}}}`)).toEqual(['_ok', 'count']);
  });

  describe("the environment's variables", () => {
    const env: RunEnvironment = {
      version: 1,
      values: (name) => ({ BASE_URL: 'https://api.example.com/v2', Q: 'a+b&c' })[name],
      secrets: new Map([
        ['KEY', ['https://api.example.com']],
        ['CLEARED', ['https://api.example.com']],
      ]),
      withoutValue: new Set(['CLEARED']),
      filled: new Map([
        ['BASE_URL', 'https://api.example.com/v2'],
        ['Q', 'a+b&c'],
        ['KEY', 'k"1'],
      ]),
    };

    it("fills a URL with their values as written and the caller's percent-encoded; headers and bodies like the caller's", () => {
      const template = {
        url: '{{env.BASE_URL}}/{{id}}?q={{env.Q}}',
        headers: [{ header: 'X-Key', value: '{{env.KEY}}' }],
        body: '{"key":"{{env.KEY}}","q":"{{env.Q}}"}',
      };
      expect(fillTemplate(template, { id: 'x/y' }, { bodyEncoding: 'json', env })).toEqual({
        url: 'https://api.example.com/v2/x%2Fy?q=a+b&c',
        oauthUrl: null,
        headers: [{ header: 'X-Key', value: 'k"1' }],
        body: '{"key":"k\\"1","q":"a+b&c"}',
        unused: [],
      });
      expect(fillTemplate({ url: 'https://x.example/', headers: [], body: 'q={{env.Q}}' }, {}, { bodyEncoding: 'form', env }).body).toBe('q=a%2Bb%26c');
    });

    it("is a 400 for a caller's variable named env.*, an undefined one, and a secret one without a value, each saying how to set it", () => {
      const template = { url: '{{env.BASE_URL}}/{{env.MISSING}}/{{env.CLEARED}}', headers: [], body: '' };
      expect(problemsOf(() => fillTemplate(template, { 'env.BASE_URL': 'https://evil.example' }, { env }))).toEqual([
        'variables.env.BASE_URL cannot be given: env.* names are the connector variables of the environment, set with PUT /org/{orgUUID}/env/{envUUID}/connector-variables',
      ]);
      expect(problemsOf(() => fillTemplate(template, {}, { env }))).toEqual([
        '{{env.MISSING}} appears in the connector, and its environment defines no MISSING: define it with PUT /org/{orgUUID}/env/{envUUID}/connector-variables',
        '{{env.CLEARED}} is a secret connector variable without a value (its destination moved): send its value again with PUT /org/{orgUUID}/env/{envUUID}/connector-variables',
      ]);
    });
  });
});

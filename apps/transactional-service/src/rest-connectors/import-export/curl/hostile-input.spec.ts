import { ImportDraft, ImportSourceError } from '../connector-draft';
import { importCurl } from './import-curl';

/** Whatever comes in, the importer answers a draft or an ImportSourceError: never another error. */
async function answer(source: unknown, options: unknown = {}): Promise<ImportDraft | ImportSourceError> {
  try {
    return await importCurl(source as string, options as never);
  } catch (error) {
    if (error instanceof ImportSourceError) return error;
    throw error;
  }
}

/** What an import shows of a source besides its credentials: the error, or the warnings and the connectors. */
async function shownOf(source: string): Promise<string> {
  const result = await answer(source);
  if (result instanceof ImportSourceError) return result.message;
  // The credentials and the secret headers' values are what the import seals: the rest is shown.
  return JSON.stringify([result.warnings, result.connectors.map(({ credentials, ...rest }) => ({ ...rest, headers: rest.headers.filter(({ secret }) => !secret) }))]);
}

/** A small seeded generator: the same hostile inputs on every run. */
function randomTexts(count: number, seed: number): string[] {
  const alphabet = [
    ...` \t\n\\'"$\`{}[]()|&;<>#^*?~=@:/-abcXYZ019é🙂`,
    '\r\n',
    '\u0000',
    '\ud800',
    'curl ',
    '-H ',
    '-d ',
    '-u ',
    "$'",
    '${',
    '$(',
    'https://x.test/',
    '--json ',
    '-G ',
    '-F ',
    '--next ',
  ];
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  return Array.from({ length: count }, () => Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join(''));
}

describe('importCurl on hostile input', () => {
  it.each([undefined, null, 42, {}, [], ['curl https://x.test'], Buffer.from('curl https://x.test')])(
    'refuses a source that is not text (%p)',
    async (source) => {
      expect(await answer(source)).toBeInstanceOf(ImportSourceError);
    },
  );

  it.each([{ select: 'line 1' }, { select: [1] }, { select: {} }])('refuses a select that is not a list of where values (%p)', async (options) => {
    expect(await answer('curl https://x.test', options)).toBeInstanceOf(ImportSourceError);
  });

  it('names the line of a NUL or a lone surrogate', async () => {
    expect(((await answer('curl https://x.test \\\n -d a\u0000b')) as ImportSourceError).message).toBe(
      'source line 2: the text must not contain NUL characters',
    );
    expect(((await answer('\n\ncurl https://x.test/\udc00')) as ImportSourceError).message).toBe(
      'source line 3: the text must not contain a lone UTF-16 surrogate',
    );
  });

  it('takes missing or null options as none', async () => {
    expect(await answer('curl https://x.test', undefined)).not.toBeInstanceOf(ImportSourceError);
    expect(await answer('curl https://x.test', null)).not.toBeInstanceOf(ImportSourceError);
  });

  it('answers 3000 random mixes of shell and curl syntax with a draft or an ImportSourceError only', async () => {
    for (const text of randomTexts(3000, 31)) await answer(`curl ${text}`);
    for (const text of randomTexts(1000, 7)) await answer(text);
  });

  it.each([
    ['a lone surrogate', 'curl https://x.test -d \ud800'],
    ['a NUL', 'curl https://x.test -d a\u0000b'],
    ['a body over 64 KiB', `curl https://x.test -d '${'x'.repeat(64 * 1024 + 1)}'`],
    ['a URL over 2048 characters', `curl 'https://x.test/${'a'.repeat(2048)}'`],
    ['51 headers', `curl https://x.test ${Array.from({ length: 51 }, (_, index) => `-H 'X-${index}: 1'`).join(' ')}`],
    ['a header value over 8 KiB', `curl https://x.test -H 'X: ${'v'.repeat(8 * 1024 + 1)}'`],
    ['a variable name of 65 characters', `curl "https://x.test/$${'A'.repeat(65)}"`],
    ['an ANSI-C escape beyond Unicode', "curl https://x.test -d $'\\U00110000'"],
    ['bytes that are not UTF-8', "curl https://x.test -d $'\\xff'"],
    ['deep parentheses', `curl ${'('.repeat(10000)}`],
    ['a deep brace run', `curl https://x.test/${'{'.repeat(10000)}`],
    ['a heredoc', 'curl https://x.test -d @- <<EOF\na\nEOF'],
    ['an unclosed brace before 500,000 commas', `curl -d {${','.repeat(500_000)}`],
    ['a URL glob of 500,000 commas', `curl 'https://x.test/{${','.repeat(500_000)}'`],
  ])('refuses %s with an ImportSourceError', async (_, source) => {
    expect(await answer(source)).toBeInstanceOf(ImportSourceError);
  });

  it('refuses a 1 MiB source of 47,000 commands without making a draft of each, and imports a selection of it', async () => {
    const source = 'curl https://x.test/a\n'.repeat(60_000).slice(0, 1024 * 1024);
    const refused = await answer(source);
    expect(refused).toBeInstanceOf(ImportSourceError);
    expect((refused as ImportSourceError).message).toBe(
      'source as a whole: holds 47663 requests (one per URL of each command): an import creates at most 200 connectors; split the source into several imports, or pick at most 200 with select (`line N`, or `line N, URL 2` for one URL of a command)',
    );
    const chosen = await answer(source, { select: ['line 3', 'line 47000'] });
    expect((chosen as ImportDraft).connectors.map(({ where }) => where)).toEqual(['line 3', 'line 47000']);
  });

  it('reads a 1 MiB single-quoted argument in one pass', async () => {
    expect(await answer(`curl https://x.test -H 'X: ${"'\\''".repeat(200_000)}'`)).toBeInstanceOf(ImportSourceError);
  });

  it('leaves Object.prototype alone, whatever the names', async () => {
    const source =
      "curl 'https://x.test/?__proto__=1&constructor=2' -H '__proto__: x' -H 'constructor: y' --data-urlencode __proto__=1 --__proto__ -u __proto__:x";
    const result = await answer(source);
    expect(result).not.toBeInstanceOf(ImportSourceError);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.prototype.toString.call({})).toBe('[object Object]');
  });

  it('never shows a secret in a warning or an error', async () => {
    const secret = 'S3cr3tV4lue';
    const sources = [
      `curl -u a:${secret} -H 'Authorization: Bearer ${secret}' 'https://x.test/?api_key=${secret}' -H 'X-API-Key: ${secret}'`,
      `curl https://x.test -H 'Authorization: Basic ${secret}'`,
      `curl https://x.test -u $'a\\x01:${secret}'`,
      `curl https://x.test -H 'Authorization: Token ${secret}' --oauth2-bearer ${secret}`,
      `curl https://x.test -H 'Authorization Bearer ${secret}'`,
    ];
    for (const source of sources) expect(await shownOf(source)).not.toContain(secret);
  });

  it('never quotes a credential in a warning or an error, in any spelling curl takes or refuses', async () => {
    const secret = 'S3cr3tV4lue';
    const sources = [
      // Spellings curl refuses (it takes no --option=value): unknown options, named without what follows `=`.
      `curl https://x.test --header=Authorization:\\ Bearer\\ ${secret}`,
      `curl https://x.test --header='X-API-Key: ${secret}'`,
      `curl https://x.test --user=ana:${secret}`,
      `curl https://x.test --oauth2-bearer=${secret}`,
      `curl https://x.test --proxy-user=ana:${secret}`,
      `curl https://x.test --Authorization:Bearer-${secret}`,
      `curl https://x.test -W${secret}`,
      // Spellings curl takes.
      `curl https://x.test -H'Authorization: Bearer ${secret}' -HX-Api-Key:${secret}`,
      `curl https://x.test -uana:${secret} --user ana:${secret} -sSu ana:${secret}`,
      `curl https://x.test --heade 'Authorization: Bearer ${secret}' --oauth2-bearer ${secret}`,
      `curl 'https://ana:${secret}@x.test/?access_token=${secret}&api_key=${secret}' --url-query key=${secret} -U ana:${secret}`,
      `curl --url https://ana:${secret}@x.test -G -d apikey=${secret} -b ${secret} --proxy https://ana:${secret}@proxy.test`,
      `curl https://x.test -H 'X-API-Key ${secret}:' -H 'Authorization Bearer ${secret}: x'`,
      // A continuation forgotten: the option starts a line of its own.
      `curl https://x.test\n--header=Authorization:Bearer-${secret}`,
      `curl https://x.test\n-H 'Authorization: Bearer ${secret}'`,
    ];
    for (const source of sources) expect(await shownOf(source)).not.toContain(secret);
  });
});

import { execFileSync } from 'node:child_process';
import { shellQuoted } from './posix-quote';
import { tokenizeShell } from './shell-words';

const PASTE_HAZARD = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Every Unicode scalar value but NUL (no shell argument carries one; lone surrogates cannot be stored), in texts of 8192 code units. */
function everyCodePoint(): string[] {
  const texts: string[] = [];
  let text = '';
  for (let codePoint = 1; codePoint <= 0x10ffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    text += String.fromCodePoint(codePoint);
    if (text.length >= 8192) [texts[texts.length], text] = [text, ''];
  }
  return [...texts, text];
}

/** What bash hands a command for each word: `printf '%s\0'` of them, read by a real bash from its standard input. */
function bashArguments(words: string[], locale: string): string[] {
  const script = `printf '%s\\0' ${words.join(' ')}\n`;
  const out = execFileSync('bash', ['-s'], { input: script, env: { PATH: '/usr/bin:/bin', LC_ALL: locale }, maxBuffer: 64 * 1024 * 1024 });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe(shellQuoted.name, () => {
  const texts = [
    ...everyCodePoint(),
    // The same without a paste hazard: in single quotes.
    ...everyCodePoint().map((text) => text.replace(PASTE_HAZARD, '')),
    "it's",
    '\\',
    "\\'",
    "\u0003'\\0",
    '\\0031',
    'é\u0085\u00ad\u{e0001}\u{1d173}',
    '',
  ];

  it.each(['C.UTF-8', 'C'])('gives every character back through bash exactly, in the %s locale', (locale) => {
    const given = bashArguments(texts.map(shellQuoted), locale);

    expect(given).toHaveLength(texts.length);
    expect(given.map((text, index) => (text === texts[index] ? 'same' : `text ${index} differs`)).filter((same) => same !== 'same')).toEqual([]);
  });

  it('is read back exactly by the import', () => {
    const words = tokenizeShell(texts.map(shellQuoted).join(' ')).map((token) => (token.kind === 'word' ? token.word.text : token.kind));

    expect(words.map((text, index) => (text === texts[index] ? 'same' : `text ${index} differs`)).filter((same) => same !== 'same')).toEqual([]);
    expect(words).toHaveLength(texts.length);
  });
});

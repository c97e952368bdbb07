import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportSourceError } from '../connector-draft';
import { ShellToken, tokenizeShell } from './shell-words';

/** Variables the oracle's bash is given: each expands to `{{NAME}}`, which is what the tokenizer writes for `$NAME`. */
const VARIABLES = ['VAR', 'TOKEN', 'N', 'API_KEY'];

/**
 * bash itself is the oracle: `curl` is a function that prints its arguments NUL-separated, run in an empty directory
 * (so that a glob matches no file and stays literal, as the tokenizer leaves it) and a UTF-8 locale (for `\u` escapes).
 */
function bashWords(command: string): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'curl-words-'));
  try {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', ...Object.fromEntries(VARIABLES.map((name) => [name, `{{${name}}}`])) };
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], { cwd: directory, env, encoding: 'utf8' });
    return out.split('\0').slice(0, -1);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function words(tokens: ShellToken[]): string[] {
  return tokens.flatMap((token) => (token.kind === 'word' ? [token.word.text] : [])).slice(1);
}

function refusal(source: string): string {
  try {
    tokenizeShell(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportSourceError);
    return (error as ImportSourceError).message;
  }
  throw new Error(`not refused: ${source}`);
}

describe('tokenizeShell', () => {
  const sameAsBash: Array<[string, string]> = [
    ['single and double quotes, escaped blank', `curl 'a b' "c d" e\\ f`],
    ['escapes inside double quotes', 'curl "a \\"b\\" \\$c \\\\ \\x \\`"'],
    ['ANSI-C quoting', "curl $'a\\nb\\'c\\x41\\u00e9\\101\\cA\\t\\e\\z'"],
    ['ANSI-C bytes decoded as UTF-8', "curl $'\\xc3\\xa9' $'\\303\\251'"],
    ['a NUL ends an ANSI-C string', "curl $'a\\0b'c"],
    ['line continuations', 'curl a \\\n  b \\\n\\\n  c'],
    ['a continuation inside double quotes', 'curl "a\\\nb"'],
    ['variables outside single quotes only', `curl "$VAR" \${VAR} x$VAR/y '$VAR' "$TOKEN"x`],
    ['a JSON body with a variable for a number', `curl -d "{\\"a\\": $N}"`],
    ['# starts a comment only at a word start', `curl a#b 'c'#d # a comment 'unclosed`],
    ["a quote in single quotes: '\\''", `curl 'it'\\''s'`],
    ['a line break inside quotes', `curl "two\nlines" 'and\nthese'`],
    ['$"…" is "…"', 'curl $"loc" x$"y"'],
    ['a lone dollar sign is literal', `curl "$" '$' $ a$ "a$/" $'$'`],
    ['globs that match no file stay literal', 'curl http://x/?a=[1] a*b'],
    ['unicode', `curl 'é' "ü" ü '🙂'`],
    ['empty arguments', `curl '' "" $''`],
    ['adjacent quoting forms make one word', `curl 'a'"b"c$'d'"$VAR"`],
    ['a backslash at the very end', 'curl a\\'],
  ];

  it.each(sameAsBash)('reads %s as bash does', (_, command) => {
    expect(words(tokenizeShell(command))).toEqual(bashWords(command));
  });

  it('records the physical line each word starts on', () => {
    const tokens = tokenizeShell("curl a \\\n  -d 'x\ny' \\\n  c\ncurl d");
    const lines = tokens.flatMap((token) => (token.kind === 'word' ? [`${token.word.text}@${token.word.line}`] : []));
    expect(lines).toEqual(['curl@1', 'a@1', '-d@2', 'x\ny@2', 'c@4', 'curl@5', 'd@5']);
  });

  it('gives operators and redirections as tokens, never as words', () => {
    const operators = tokenizeShell('curl a | jq . > out.json 2>&1 && x; y &').flatMap((token) => (token.kind === 'operator' ? [token.operator] : []));
    expect(operators).toEqual(['|', '>', '2>&', '&&', ';', '&']);
  });

  it.each([
    ['command substitution', 'curl $(id)', 'command or arithmetic substitution'],
    ['backticks', 'curl "`id`"', 'command substitution (`…`)'],
    ['arithmetic', 'curl $((1+2))', 'command or arithmetic substitution'],
    ['${…} with an operator', 'curl ${X:-y}', 'only ${NAME}'],
    ['a special parameter', 'curl "$1"', '$1 (a special shell parameter)'],
    ['brace expansion', 'curl http://x/{a,b}', 'brace expansion'],
    ['an unclosed single quote', "curl 'a", 'single quote'],
    ['an unclosed double quote', 'curl "a', 'double quote'],
    ['an unclosed ANSI-C quote', "curl $'a", 'ANSI-C quote'],
    ['Windows cmd quoting', 'curl ^"https://x^" ^\n  -H ^"a: b^"', 'Windows cmd quoting'],
    ['a Windows cmd continuation', 'curl https://x ^\n  -H a', 'Windows cmd quoting'],
    ['a PowerShell continuation', 'curl https://x `\n  -H a', 'PowerShell backtick continuation'],
  ])('refuses %s with a reason', (_, source, reason) => {
    expect(refusal(source)).toContain(reason);
  });

  it('names the line of what it refuses', () => {
    expect(refusal("curl a \\\n  -d 'x' \\\n  $(id)")).toMatch(/^source line 3: /);
  });

  it('keeps literal what quotes protect from every refusal', () => {
    expect(words(tokenizeShell(`curl '$(id) \`id\` {a,b} ^" $1'`))).toEqual(['$(id) `id` {a,b} ^" $1']);
  });
});

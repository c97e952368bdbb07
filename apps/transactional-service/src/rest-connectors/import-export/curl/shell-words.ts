import { PLACEHOLDER } from '@app/domain';
import { ImportSourceError } from '../connector-draft';

/**
 * The POSIX shell's word rules for the text of a pasted cURL command, hand-written because no maintained
 * shell-words library reads them right (docs/decisions.md, "cURL import", has the measurements): shell-quote turns
 * `a#b` into a comment, `\`-newline into an empty argument, accepts an unterminated quote and cannot tell `'$X'` from
 * `"$X"` after the fact; shlex keeps the backslash of `"\$"` and gives `$VAR` back the same in every quoting;
 * string-argv, shellwords and args-tokenizer know no `$'…'`; sh-syntax (mvdan/sh in Go WASM) leaves the words out of
 * its JSON tree and crashes on a 1 MiB input; tree-sitter-bash gives a tree but leaves every unquoting to us.
 *
 * What it reads: blanks, `\`-newline continuations, `#` comments, '…', "…" (with `\$ \` \" \\`), $'…' (ANSI-C, decoded
 * as UTF-8 bytes as bash does), $"…", `\` escapes, `$NAME` and `${NAME}` outside single quotes (as `{{NAME}}`, the
 * connector's variable syntax, never expanded), and the operators `| || |& & && ; ( ) < > >> …` as tokens for the
 * caller to judge. What it refuses, since the shell would run or expand it: `$(…)`, backticks, `$((…))`, `${…}` with
 * an operator, special parameters (`$1`, `$@`, …) and brace expansion (`{a,b}`); and Windows cmd's `^"` and a
 * PowerShell backtick continuation, which a POSIX reading would get silently wrong. Globs (`*`, `?`, `[…]`) and `~`
 * stay literal, as bash leaves a pattern that matches no file. CR before LF outside quotes is taken as a line end
 * (text pasted from Windows); inside quotes it is kept. In the command below a `# connector:` line (an export, whose
 * every variable is a shell variable: connector-comment.ts), literal `{{name}}` text is the text it is: read as the
 * escaped `\{{name}}`.
 */

export interface ShellWord {
  text: string;
  /** The 1-based physical line the word starts on. */
  line: number;
}

export type ShellToken =
  | { kind: 'word'; word: ShellWord }
  | { kind: 'operator'; operator: string; line: number }
  | { kind: 'newline'; line: number }
  | { kind: 'comment'; text: string; line: number };

export const COPY_AS_BASH = 'copy the command as "cURL (bash)" (POSIX quoting) instead';

const OPERATORS = ['<<<', '&>>', '||', '|&', '&&', ';;', '&>', '<<', '<&', '<>', '<(', '>>', '>&', '>|', '>(', '|', '&', ';', '(', ')', '<', '>'];
const WORD_END = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>']);
/** Characters that stand for themselves outside quotes, in a run: the common case, read in one step. */
const PLAIN_RUN = /[^ \t\n|&;()<>'"\\$`^\r]+/y;
const NAME_START = /[A-Za-z_]/;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const BRACED_NAME = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/y;
const SPECIAL_PARAMETER = /[0-9@*#?$!-]/;
/** The longest name a connector variable may have (VARIABLE_NAME). */
const MAX_VARIABLE_NAME = 64;
const ANSI_C_ESCAPES: Record<string, number> = { a: 7, b: 8, e: 27, E: 27, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/**
 * What stands for an expanded variable's name inside a word until the word ends (`\0name\0`): never text, as no
 * word holds a NUL (importCurl refuses one in the source, and an ANSI-C quote's value ends at one).
 */
const EXPANDED = /\0([^\0]*)\0/g;
const ENCODER = new TextEncoder();

/** The comment line of an export that holds what a command cannot say of a connector (connector-comment.ts). */
export const CONNECTOR_COMMENT = 'connector:';

/** Whether a comment's text is the connector line. */
export function isConnectorComment(text: string): boolean {
  return text.trimStart().startsWith(CONNECTOR_COMMENT);
}

/** The tokens of `source`, or an ImportSourceError naming the line of the first thing it cannot read. */
export function tokenizeShell(source: string): ShellToken[] {
  return new ShellLexer(source).tokens();
}

/** One pass over the text; its state lives and dies with one call of tokenizeShell. */
class ShellLexer {
  private at = 0;
  private line = 1;
  private readonly out: ShellToken[] = [];
  /** Below a `# connector:` line until its command's line ends: literal `{{name}}` text is escaped. */
  private exported = false;
  private lineHasWord = false;

  constructor(private readonly text: string) {}

  tokens(): ShellToken[] {
    while (this.at < this.text.length) this.step();
    return this.out;
  }

  private fail(reason: string): never {
    throw new ImportSourceError(`line ${this.line}`, reason);
  }

  private step(): void {
    const char = this.text[this.at];
    if (char === ' ' || char === '\t') this.at++;
    else if (this.lineEndAt(this.at) > 0) this.newline();
    else if (char === '\\' && this.lineEndAt(this.at + 1) > 0) this.continuation();
    else if (char === '#') this.comment();
    else if (!this.operator()) this.word();
  }

  /** How long the line end at `index` is: 1 for LF, 2 for CR LF, 0 for none. */
  private lineEndAt(index: number): number {
    if (this.text[index] === '\n') return 1;
    return this.text[index] === '\r' && this.text[index + 1] === '\n' ? 2 : 0;
  }

  private newline(): void {
    if (this.lineHasWord) this.exported = false;
    this.lineHasWord = false;
    this.out.push({ kind: 'newline', line: this.line });
    this.at += this.lineEndAt(this.at);
    this.line++;
  }

  private continuation(): void {
    this.at += 1 + this.lineEndAt(this.at + 1);
    this.line++;
  }

  private comment(): void {
    const end = this.text.indexOf('\n', this.at);
    const stop = end < 0 ? this.text.length : end;
    const text = this.text.slice(this.at + 1, stop).replace(/\r$/, '');
    if (isConnectorComment(text)) this.exported = true;
    this.out.push({ kind: 'comment', text, line: this.line });
    this.at = stop;
  }

  private operator(): boolean {
    const found = OPERATORS.find((operator) => this.text.startsWith(operator, this.at));
    if (!found) return false;
    this.out.push({ kind: 'operator', operator: found, line: this.line });
    this.at += found.length;
    return true;
  }

  private word(): void {
    const line = this.line;
    let text = '';
    // The unquoted characters as written, every other one as `_`: what brace expansion would see.
    let skeleton = '';
    while (this.at < this.text.length && !this.wordEndsAt(this.at)) {
      PLAIN_RUN.lastIndex = this.at;
      const run = PLAIN_RUN.exec(this.text)?.[0];
      const char = this.text[this.at];
      if (run !== undefined) {
        text += run;
        skeleton += run;
        this.at += run.length;
      } else if (char === '^' || char === '\r') {
        if (char === '^' && this.isWindowsCaret()) this.fail(`Windows cmd quoting (^" and ^ at a line end) is not read: ${COPY_AS_BASH}`);
        text += char;
        skeleton += char;
        this.at++;
      } else {
        text += this.quotedOrExpanded(char);
        skeleton += '_';
      }
    }
    if (hasBraceExpansion(skeleton)) this.fail('brace expansion ({a,b} or {1..3}) would make several arguments of one word: quote it');
    this.lineHasWord = true;
    if (this.exported) text = text.replace(PLACEHOLDER, '\\$&');
    text = text.replace(EXPANDED, '{{$1}}');
    this.out.push(/^\d+$/.test(skeleton) && /[<>]/.test(this.text[this.at] ?? '') ? this.fileDescriptor(text, line) : { kind: 'word', word: { text, line } });
  }

  private wordEndsAt(index: number): boolean {
    return WORD_END.has(this.text[index]) || this.lineEndAt(index) > 0;
  }

  /** `2>` and `1>&2`: the number belongs to the redirection that follows it. */
  private fileDescriptor(number: string, line: number): ShellToken {
    const operator = OPERATORS.find((candidate) => this.text.startsWith(candidate, this.at))!;
    this.at += operator.length;
    return { kind: 'operator', operator: number + operator, line };
  }

  /** cmd's `^"` or a `^` that continues the line: in a POSIX shell, a caret there is almost never meant. */
  private isWindowsCaret(): boolean {
    return this.text[this.at + 1] === '"' || /^[ \t]*(?:\r?\n|$)/.test(this.text.slice(this.at + 1, this.at + 64));
  }

  private quotedOrExpanded(char: string): string {
    if (char === "'") return this.singleQuoted();
    if (char === '"') return this.doubleQuoted();
    if (char === '\\') return this.escaped();
    if (char === '`') return this.backtick();
    return this.dollar(false);
  }

  private singleQuoted(): string {
    const end = this.text.indexOf("'", this.at + 1);
    if (end < 0) this.fail("a single quote (') is never closed");
    const content = this.text.slice(this.at + 1, end);
    this.line += countLines(content);
    this.at = end + 1;
    return content;
  }

  private escaped(): string {
    const next = this.text[this.at + 1];
    this.at += 2;
    // A backslash at the very end of the text stays, as bash leaves it.
    return next ?? '\\';
  }

  private backtick(): never {
    const powershell = /^[ \t]*(?:\r?\n|$)/.test(this.text.slice(this.at + 1, this.at + 64));
    if (powershell) this.fail(`a PowerShell backtick continuation is not read: ${COPY_AS_BASH}`);
    this.fail('command substitution (`…`) is not run by an import: write the value itself, or a $VARIABLE');
  }

  private doubleQuoted(): string {
    this.at++;
    let text = '';
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.fail('a double quote (") is never closed');
      if (char === '"') break;
      if (char === '\\') text += this.escapedInDoubleQuotes();
      else if (char === '$') text += this.dollar(true);
      else if (char === '`') this.backtick();
      else {
        if (char === '\n') this.line++;
        text += char;
        this.at++;
      }
    }
    this.at++;
    return text;
  }

  /** Inside "…" a backslash escapes only `$`, a backtick, `"`, `\` and a newline (which it removes). */
  private escapedInDoubleQuotes(): string {
    const next = this.text[this.at + 1];
    if (next === '\n' || (next === '\r' && this.text[this.at + 2] === '\n')) {
      this.continuation();
      return '';
    }
    if (next === '$' || next === '`' || next === '"' || next === '\\') {
      this.at += 2;
      return next;
    }
    this.at++;
    return '\\';
  }

  private dollar(inDoubleQuotes: boolean): string {
    const next = this.text[this.at + 1];
    if (!inDoubleQuotes && next === "'") return this.ansiC();
    if (!inDoubleQuotes && next === '"') {
      // $"…" is "…" translated by the locale: the text itself, as in the C locale.
      this.at++;
      return this.doubleQuoted();
    }
    if (next === '(' || next === '[') this.fail('command or arithmetic substitution ($(…), $((…)), $[…]) is not run by an import: write the value itself');
    if (next === '{') return this.bracedVariable();
    if (next !== undefined && NAME_START.test(next)) return this.variable();
    if (next !== undefined && SPECIAL_PARAMETER.test(next))
      this.fail(`$${next} (a special shell parameter) has no value in an import: write the value itself, or a $NAME variable`);
    // A `$` before anything else (a blank, a quote, `/`, the end) is a plain dollar sign.
    this.at++;
    return '$';
  }

  private variable(): string {
    NAME.lastIndex = this.at + 1;
    const name = NAME.exec(this.text)![0];
    this.at += 1 + name.length;
    return this.placeholder(name);
  }

  private bracedVariable(): string {
    BRACED_NAME.lastIndex = this.at;
    const match = BRACED_NAME.exec(this.text);
    if (!match) this.fail('only ${NAME} is read among the ${…} expansions (no defaults, lengths or substitutions): write the value itself, or $NAME');
    this.at += match[0].length;
    return this.placeholder(match[1]);
  }

  /** `$NAME` becomes `{{NAME}}`, the connector's own variable: the value is given when the connector runs. */
  private placeholder(name: string): string {
    if (name.length > MAX_VARIABLE_NAME) this.fail(`$${name.slice(0, 20)}…: a variable name has at most ${MAX_VARIABLE_NAME} characters`);
    return `\0${name}\0`;
  }

  /** $'…': bash decodes the escapes to bytes and the bytes as text; a NUL byte ends the string's value. */
  private ansiC(): string {
    this.at += 2;
    const bytes: number[] = [];
    let ended = false;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.fail("an ANSI-C quote ($'…') is never closed");
      if (char === "'") break;
      const decoded = char === '\\' ? this.ansiCEscape() : this.ansiCCharacter(char);
      if (decoded.includes(0)) ended = true;
      if (!ended) bytes.push(...decoded);
    }
    this.at++;
    try {
      return UTF8.decode(new Uint8Array(bytes));
    } catch {
      return this.fail("an ANSI-C quote ($'…') decodes to bytes that are not UTF-8 text");
    }
  }

  private ansiCCharacter(char: string): number[] {
    const codePoint = this.text.codePointAt(this.at)!;
    const whole = String.fromCodePoint(codePoint);
    if (char === '\n') this.line++;
    this.at += whole.length;
    return [...ENCODER.encode(whole)];
  }

  private ansiCEscape(): number[] {
    const next = this.text[this.at + 1];
    if (next !== undefined && next in ANSI_C_ESCAPES) {
      this.at += 2;
      return [ANSI_C_ESCAPES[next]];
    }
    const numeric = /^(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(.))/.exec(this.text.slice(this.at + 1, this.at + 10));
    if (!numeric) {
      // An unknown escape keeps its backslash, as bash does.
      this.at++;
      return [92];
    }
    this.at += 1 + numeric[0].length;
    const [, octal, hex, short, long, control] = numeric;
    if (octal !== undefined) return [parseInt(octal, 8) & 0xff];
    if (hex !== undefined) return [parseInt(hex, 16)];
    if (control !== undefined) return [control.charCodeAt(0) & 0x1f];
    return this.codePointBytes(parseInt(short ?? long, 16));
  }

  private codePointBytes(codePoint: number): number[] {
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
      this.fail(`\\u${codePoint.toString(16)} in an ANSI-C quote is not a Unicode character`);
    return [...ENCODER.encode(String.fromCodePoint(codePoint))];
  }
}

/**
 * `{a,b}` or `{1..3}` written with unquoted braces and separator: bash makes several words of it. One pass (a regular
 * expression for it backtracks in quadratic time on `{,,,,…`).
 */
function hasBraceExpansion(skeleton: string): boolean {
  let open = false;
  let separated = false;
  for (let index = 0; index < skeleton.length; index++) {
    const char = skeleton[index];
    if (char === '{') [open, separated] = [true, false];
    else if (char === '}' && open && separated) return true;
    else if (char === '}') open = false;
    else if (open && (char === ',' || (char === '.' && skeleton[index + 1] === '.'))) separated = true;
  }
  return false;
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

import { InvalidInputError } from '@app/domain';

/**
 * Characters a terminal, its line discipline or a line editor acts on when a command is pasted, instead of taking
 * them as text: the C0 controls (^C sends SIGINT and cuts the paste short, ESC starts sequences such as the
 * bracketed-paste end `ESC[201~`, TAB completes, CR and LF accept the line), DEL, the C1 controls U+0080-U+009F (CSI
 * and OSC to some terminals), the line and paragraph separators U+2028/U+2029, and the invisible format characters
 * (bidi overrides, zero-width spaces, which make a command read otherwise than it runs).
 */
const PASTE_HAZARD = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\\': '\\\\', "'": "\\'" };
const ENCODER = new TextEncoder();

/** `text` in POSIX single quotes: every character literal, a `'` written as `'\''` (close, escaped quote, reopen). */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * One shell word that gives exactly `text`, safe to paste into an interactive shell: single quotes, or, when `text`
 * holds a PASTE_HAZARD character, ANSI-C quotes (`$'…'`: bash, zsh, ksh, and POSIX sh since 2024) in which every such
 * character is an escape (`\n`, `\t`, `\r`, else each UTF-8 byte as three octal digits, a form every shell reads alike),
 * so that the pasted text holds printable characters only. NUL cannot be in an argument at all (bash ends the string
 * there): refused, though no text the platform stores holds one.
 */
export function shellQuoted(text: string): string {
  if (!PASTE_HAZARD.test(text)) return singleQuoted(text);
  if (text.includes('\0')) {
    throw new InvalidInputError(['the connector holds a NUL character, which no shell argument can carry: export it as openapi or postman']);
  }
  let quoted = "$'";
  for (const character of text) {
    if (Object.hasOwn(NAMED_ESCAPES, character)) quoted += NAMED_ESCAPES[character];
    else if (PASTE_HAZARD.test(character)) quoted += [...ENCODER.encode(character)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
    else quoted += character;
  }
  return `${quoted}'`;
}

/** Text shown in a comment line: as it is, or, holding a PASTE_HAZARD character, as shellQuoted writes it. */
export function shownInComment(text: string): string {
  return PASTE_HAZARD.test(text) ? shellQuoted(text) : text;
}

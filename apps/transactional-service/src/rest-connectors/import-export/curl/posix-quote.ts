/** `text` in POSIX single quotes: every character literal, a `'` written as `'\''` (close, escaped quote, reopen). */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * What no text this platform takes may hold, checked in one place for the request bodies (limitJsonShape,
 * SingleLine) and the import: a lone UTF-16 surrogate (neither UTF-8 nor the database can hold one: it
 * would silently become U+FFFD, so two different names became one), NUL (C-based tools cut text at it),
 * and, in a value that may reach an HTTP message's head or a log line, CR or LF.
 */
const LINE_BREAK_OR_NUL = /[\r\n\0]/;

/** Why `text` may not be taken, or undefined. */
export function textProblem(text: string, singleLine = false): string | undefined {
  if (!text.isWellFormed()) return 'must not contain a lone UTF-16 surrogate';
  if (singleLine ? LINE_BREAK_OR_NUL.test(text) : text.includes('\0')) {
    return singleLine ? 'must not contain CR, LF or NUL characters' : 'must not contain NUL characters';
  }
  return undefined;
}

export function isSingleLine(value: unknown): boolean {
  return typeof value !== 'string' || !LINE_BREAK_OR_NUL.test(value);
}

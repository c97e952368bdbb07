/** The most characters of a field name or value that an error message quotes: a 200 KB key is not echoed. */
export const MAX_QUOTED_LENGTH = 100;

/** `text` as an error message may quote it: cut at MAX_QUOTED_LENGTH, never inside a surrogate pair. */
export function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_LENGTH) return text;
  const code = text.charCodeAt(MAX_QUOTED_LENGTH - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? MAX_QUOTED_LENGTH - 1 : MAX_QUOTED_LENGTH;
  return `${text.slice(0, end)}…`;
}

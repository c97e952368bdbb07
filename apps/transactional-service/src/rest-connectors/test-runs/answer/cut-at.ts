/** At most `limit` bytes of UTF-8 of `text`, never cutting a character in two. */
export function cutAt(text: string, limit: number): { text: string; truncated: boolean } {
  // A UTF-16 unit is at most 3 bytes of UTF-8: a short text needs no count.
  if (text.length * 3 <= limit || Buffer.byteLength(text, 'utf8') <= limit) return { text, truncated: false };
  const buffer = Buffer.from(text, 'utf8');
  let end = limit;
  while (end > 0 && (buffer[end] & 0xc0) === 0x80) end -= 1;
  return { text: buffer.subarray(0, end).toString('utf8'), truncated: true };
}

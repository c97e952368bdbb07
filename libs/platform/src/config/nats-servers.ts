/** The servers NATS_URL names: comma-separated, each trimmed, blanks dropped. */
export function natsServers(natsUrl: string): string[] {
  return natsUrl
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/** `nats://user:secret@host:4222` → `nats://host:4222`, for log lines and the start banner. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z]+:\/\/)?[^@/]*@/i, '$1');
}

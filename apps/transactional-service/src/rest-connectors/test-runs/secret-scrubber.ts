/** A value that must never leave in a test run's answer, and what stands for it there. */
export interface SecretValue {
  value: string;
  placeholder: string;
}

/** The forms a far side may echo a secret in: as it is, and Base64 (standard and URL-safe, padded or not). */
function formsOf(value: string): string[] {
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const base64url = Buffer.from(value, 'utf8').toString('base64url');
  return [...new Set([value, base64, base64.replace(/=+$/, ''), base64url])].filter((form) => form.length > 0);
}

/**
 * Replaces every occurrence of every secret, in each of its forms, by its placeholder: what the far side
 * echoes (an `Authorization` header sent back, a token in a body) never reaches the caller. Longer forms
 * first, so a secret that contains another is replaced whole.
 */
export function scrubSecrets(text: string, secrets: readonly SecretValue[]): string {
  const replacements = secrets
    .filter((secret) => secret.value.length > 0)
    .flatMap((secret) => formsOf(secret.value).map((form) => [form, secret.placeholder] as const))
    .sort(([a], [b]) => b.length - a.length);
  let scrubbed = text;
  for (const [form, placeholder] of replacements) scrubbed = scrubbed.split(form).join(placeholder);
  return scrubbed;
}

import { ConnectorHeader, ConnectorHeaderDto, SECRET_HEADER_PLACEHOLDER, secretHeaderKey, SecretHeaderKey, storedSecretHeader } from '@app/domain';
import { EnvValues, NO_ENV_VALUES, sameDestinationIn } from './env-destinations';

/** What a stored connector holds that decides whether a secret header's placeholder keeps its value. */
export interface StoredHeaders {
  url: string;
  headers: readonly ConnectorHeader[];
}

/**
 * The headers of a write as stored: a plain one as sent; a secret one (`secret: true`) sealed, or, when its value is
 * SECRET_HEADER_PLACEHOLDER, the sealed value stored for the secret header of that name (case-insensitively), but only
 * while `url` keeps its destination (scheme, host, port, user info; told with the environment's plain values `env`), as for the other secrets. A plain header whose
 * value is the placeholder of a stored secret header, a placeholder with nothing stored, and two secret headers of
 * one name are problems (pushed to `problems`).
 */
export function storedHeaders(
  sent: readonly ConnectorHeaderDto[],
  url: string,
  seal: (key: SecretHeaderKey, plaintext: string) => string,
  stored: StoredHeaders | undefined,
  problems: string[],
  env: EnvValues = NO_ENV_VALUES,
): ConnectorHeader[] {
  const secretNames = new Set<string>();
  return sent.map(({ header, value, secret }, index) => {
    if (secret !== true) {
      if (value === SECRET_HEADER_PLACEHOLDER && storedSecretHeader(stored?.headers, header) !== undefined) {
        problems.push(
          `headers.${index}.value ${value} stands for the stored value of the secret header ${header}: send secret: true with it to keep that value`,
        );
      }
      return { header, value };
    }
    const key = secretHeaderKey(header);
    if (secretNames.has(key))
      problems.push(`headers.${index}.header ${header} is a second secret header of that name: a connector has one secret header per name`);
    secretNames.add(key);
    if (value !== SECRET_HEADER_PLACEHOLDER) return { header, value: seal(key, value), secret: true };
    const kept = storedSecretHeader(stored?.headers, header);
    if (kept === undefined) {
      problems.push(`headers.${index}.value must be the secret itself: ${value} only stands for a stored one, and no secret header ${header} is stored`);
      return { header, value, secret: true };
    }
    if (!sameDestinationIn(url, stored?.url, env)) {
      problems.push(
        `headers.${index}.value of the secret header ${header} must be sent again: url now points elsewhere (another scheme, host, port or user info) than when it was stored`,
      );
    }
    return { header, value: kept.value, secret: true };
  });
}

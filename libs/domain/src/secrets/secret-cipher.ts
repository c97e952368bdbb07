import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const PREFIX = 'enc:v1';
const NONCE_BYTES = 12;

export class UnknownSecretKeyError extends Error {
  constructor(keyId: string) {
    super(`A secret is encrypted with key ${keyId}, which is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS`);
  }
}

/** The public id of a key: the first 8 hex digits of its SHA-256. Stored with every ciphertext. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * AES-256-GCM for connector secrets at rest. A stored value is `enc:v1:<key id>:<nonce>:<ciphertext>:<tag>`
 * (base64url), with a random nonce per value. `context` (the connector uuid and field) is bound as
 * associated data, so a ciphertext copied to another row or field does not decrypt. The current key
 * encrypts; the previous one still decrypts, until `npm run secrets:rotate` has re-encrypted everything.
 */
export class SecretCipher {
  readonly keyId: string;
  private readonly keys: Map<string, Buffer>;

  constructor(current: Buffer, previous?: Buffer) {
    this.keyId = keyIdOf(current);
    this.keys = new Map([[this.keyId, current]]);
    if (previous) this.keys.set(keyIdOf(previous), previous);
  }

  encrypt(plaintext: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.keyId)!, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [PREFIX, this.keyId, nonce, ciphertext, cipher.getAuthTag()].map((part) => (Buffer.isBuffer(part) ? part.toString('base64url') : part)).join(':');
  }

  decrypt(stored: string, context: string): string {
    const [scheme, version, keyId, nonce, ciphertext, tag] = stored.split(':');
    if (`${scheme}:${version}` !== PREFIX || tag === undefined) throw new Error('Not an encrypted secret');
    const key = this.keys.get(keyId);
    if (!key) throw new UnknownSecretKeyError(keyId);
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * A 32-byte key for another purpose derived from each key (HKDF-SHA256, `purpose` its info), the current key's
   * first: what the platform seals beside the secrets (the change feed's cursors) needs no setting of its own, every
   * replica derives the same keys, and they rotate with SECRETS_KEY (the previous one's still opens what it sealed).
   */
  derivedKeys(purpose: string): Buffer[] {
    return [...this.keys.values()].map((key) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32)));
  }

  /** True when the value was encrypted with another key than the current one. */
  isStale(stored: string): boolean {
    return stored.split(':')[2] !== this.keyId;
  }
}

/** What a connector's secret is bound to. */
export const secretContext = (connectorUuid: string, field: string) => `rest-connector:${connectorUuid}:${field}`;

/**
 * What a secret connector variable is bound to: its environment and its name (case-sensitive, as the name is), so a
 * sealed value copied to another environment, or to another name, does not decrypt.
 */
export const variableSecretContext = (environmentUuid: string, name: string) => `connector-variable:${environmentUuid.toLowerCase()}:${name}`;

/** What a connector's secret header is bound to: the connector and the header's name, case-insensitively. */
export const secretHeaderContext = (connectorUuid: string, header: string) => secretContext(connectorUuid, secretHeaderKey(header));

/** The field a secret header is sealed as: `header:` and its lower-cased name (two spellings of a name are one header). */
export const secretHeaderKey = (header: string): SecretHeaderKey => `header:${header.toLowerCase()}`;

export type SecretHeaderKey = `header:${string}`;

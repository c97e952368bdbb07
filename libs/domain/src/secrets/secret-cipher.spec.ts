import { randomBytes } from 'node:crypto';
import { keyIdOf, SecretCipher, UnknownSecretKeyError } from './secret-cipher';

describe(SecretCipher.name, () => {
  const current = randomBytes(32);
  const previous = randomBytes(32);

  it('round-trips a secret and never stores it in clear', () => {
    const sut = new SecretCipher(current);

    const stored = sut.encrypt('p4ssw0rd-ünïcode', 'ctx');

    expect(stored).toMatch(new RegExp(`^enc:v1:${keyIdOf(current)}:[\\w-]+:[\\w-]+:[\\w-]+$`));
    expect(stored).not.toContain('p4ssw0rd');
    expect(sut.decrypt(stored, 'ctx')).toBe('p4ssw0rd-ünïcode');
  });

  it('uses a fresh nonce for every value', () => {
    const sut = new SecretCipher(current);

    expect(sut.encrypt('same', 'ctx')).not.toBe(sut.encrypt('same', 'ctx'));
  });

  it('refuses a ciphertext moved to another context', () => {
    const sut = new SecretCipher(current);
    const stored = sut.encrypt('secret', 'rest-connector:a:basicToken');

    expect(() => sut.decrypt(stored, 'rest-connector:b:basicToken')).toThrow();
  });

  it('decrypts with the previous key and reports the value stale', () => {
    const old = new SecretCipher(previous);
    const stored = old.encrypt('secret', 'ctx');
    const sut = new SecretCipher(current, previous);

    expect(sut.decrypt(stored, 'ctx')).toBe('secret');
    expect(sut.isStale(stored)).toBe(true);
    expect(sut.isStale(sut.encrypt('secret', 'ctx'))).toBe(false);
  });

  it('names the unknown key instead of failing obscurely', () => {
    const stored = new SecretCipher(previous).encrypt('secret', 'ctx');

    expect(() => new SecretCipher(current).decrypt(stored, 'ctx')).toThrow(UnknownSecretKeyError);
  });
});

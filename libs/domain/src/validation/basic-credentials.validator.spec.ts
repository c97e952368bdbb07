import { isBasicCredentials } from './basic-credentials.validator';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe(isBasicCredentials.name, () => {
  it.each([
    ['user:password', base64('user:password')],
    ['an empty password', base64('user:')],
    ['an empty user-id', base64(':password')],
    ['a colon in the password', base64('user:pa:ss')],
    ['UTF-8 text', base64('jürgen:pässwörd')],
    ['no padding needed', base64('user:pass')],
  ])('accepts the Base64 of %s', (_what, token) => {
    expect(isBasicCredentials(token)).toBe(true);
  });

  it.each([
    ['an empty token', ''],
    ['text that is not Base64', 'not-base64-at-all'],
    ['Base64 without its padding', base64('user:password').replace(/=+$/, '')],
    ['the URL-safe alphabet', base64('u?>:p').replace(/\+/g, '-').replace(/\//g, '_')],
    ['non-canonical trailing bits', 'YR=='],
    ['a line break inside', `${base64('user:password').slice(0, 8)}\n${base64('user:password').slice(8)}`],
    ['spaces around', ` ${base64('user:password')} `],
    ['no colon', base64('userpassword')],
    ['bytes that are not UTF-8', Buffer.from([0x75, 0x3a, 0xff, 0xfe]).toString('base64')],
    ['a control character', base64('user:pass\u0000word')],
    ['a prefix', `Basic ${base64('user:password')}`],
  ])('refuses %s', (_what, token) => {
    expect(isBasicCredentials(token)).toBe(false);
  });
});

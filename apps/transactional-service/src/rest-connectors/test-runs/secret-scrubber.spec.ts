import { scrubSecrets } from './secret-scrubber';

const TOKEN = { value: 's3cr3t-bearer-token', placeholder: '<BEARER_TOKEN>' };
const ACCESS = { value: 'eyJhbGciOi.access.token', placeholder: '<ACCESS_TOKEN>' };

describe('scrubSecrets', () => {
  it('replaces a secret echoed as it is, in a header or a body', () => {
    expect(scrubSecrets('{"seen": "Bearer s3cr3t-bearer-token", "again": "s3cr3t-bearer-token"}', [TOKEN])).toBe(
      '{"seen": "Bearer <BEARER_TOKEN>", "again": "<BEARER_TOKEN>"}',
    );
  });

  it('replaces its Base64 forms: standard, unpadded and URL-safe', () => {
    const value = 'pa?ss>word~~';
    const secret = { value, placeholder: '<PASSWORD>' };
    const standard = Buffer.from(value).toString('base64');
    const url = Buffer.from(value).toString('base64url');
    expect(standard).not.toBe(url);
    expect(scrubSecrets(`a=${standard} b=${standard.replace(/=+$/, '')} c=${url}`, [secret])).toBe('a=<PASSWORD> b=<PASSWORD> c=<PASSWORD>');
  });

  it('replaces every secret at once, the longer first', () => {
    const inner = { value: 'abc', placeholder: '<A>' };
    const outer = { value: 'xxabcxx', placeholder: '<B>' };
    expect(scrubSecrets('xxabcxx abc eyJhbGciOi.access.token', [inner, outer, ACCESS])).toBe('<B> <A> <ACCESS_TOKEN>');
  });

  it('leaves a text without secrets as it is, and ignores empty secrets', () => {
    expect(scrubSecrets('nothing here', [TOKEN, { value: '', placeholder: '<X>' }])).toBe('nothing here');
  });
});

import { bearerToken, MAX_TOKEN_LENGTH } from './bearer-token';

describe(bearerToken.name, () => {
  it('returns the token of a well-formed header, in any case of the scheme', () => {
    expect(bearerToken('bearer aGVhZA.cGF5bG9hZA.c2ln')).toBe('aGVhZA.cGF5bG9hZA.c2ln');
    expect(bearerToken('Bearer aGVhZA.cGF5bG9hZA.')).toBe('aGVhZA.cGF5bG9hZA.');
  });

  it.each([
    ['two segments', 'Bearer aGVhZA.cGF5bG9hZA'],
    ['four segments', 'Bearer a.b.c.d'],
    ['characters outside base64url', 'Bearer a+b.c/d.e='],
    ['more than the longest token accepted', `Bearer a.${'b'.repeat(MAX_TOKEN_LENGTH)}.c`],
  ])('refuses %s as jose would, without verifying', (_, header) => {
    expect(() => bearerToken(header)).toThrow(expect.objectContaining({ message: 'The token is invalid', challenge: 'Bearer error="invalid_token"' }));
  });
});

describe('a token pasted with its scheme into a client that adds it', () => {
  it('is a 401 that says "Bearer" came twice and what to paste', () => {
    expect(() => bearerToken('Bearer Bearer aGVhZA.cGF5bG9hZA.c2ln')).toThrow(
      expect.objectContaining({
        message: 'The Authorization header says "Bearer" twice: paste the token alone (Swagger UI\'s Authorize adds "Bearer " for you)',
      }),
    );
    expect(() => bearerToken('bearer  BEARER aGVhZA.cGF5bG9hZA.c2ln')).toThrow(/says "Bearer" twice/);
  });
});

import * as jose from 'jose';
import { AppConfig } from '../config/app-config';
import { JwtVerifier } from './jwt-verifier.service';

jest.mock('jose', () => {
  const actual = jest.requireActual('jose');
  return { ...actual, jwtVerify: jest.fn(actual.jwtVerify) };
});

const SECRET = 'unit-test-secret-unit-test-secret-0123456789';
const config = { auth: { mode: 'secret', secret: SECRET } } as AppConfig;
const sign = (expiresAt: number, times: { iat?: number; nbf?: number } = {}) =>
  new jose.SignJWT({ orgs: ['*'], ...times })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('ada')
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(SECRET));
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe(JwtVerifier.name, () => {
  let sut: JwtVerifier;

  beforeEach(() => {
    jest.mocked(jose.jwtVerify).mockClear();
    sut = new JwtVerifier(config);
    sut.onModuleInit();
  });
  afterEach(() => jest.useRealTimers());

  it("checks a token's signature once and answers later requests from memory", async () => {
    const token = await sign(Math.floor(Date.now() / 1000) + 600);

    const first = await sut.verify(token);
    const second = await sut.verify(token);

    expect(second).toBe(first);
    expect(jose.jwtVerify).toHaveBeenCalledTimes(1);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it("never answers from memory past the token's exp", async () => {
    const now = Date.now();
    const token = await sign(Math.floor(now / 1000) + 60);
    await sut.verify(token);
    jest.useFakeTimers({ now: now + 61_000 });

    await expect(sut.verify(token)).rejects.toThrow('The token has expired');
    expect(jose.jwtVerify).toHaveBeenCalledTimes(2);
  });

  it('never remembers a rejected token', async () => {
    const forged = `${(await sign(Math.floor(Date.now() / 1000) + 600)).slice(0, -4)}AAAA`;

    await expect(sut.verify(forged)).rejects.toThrow('The token is invalid');
    await expect(sut.verify(forged)).rejects.toThrow('The token is invalid');
    expect(jose.jwtVerify).toHaveBeenCalledTimes(2);
  });

  it.each(['iat', 'nbf'])('rejects a token whose %s is more than 60 s ahead of the clock', async (claim) => {
    // The clock stands still between signing and verifying: a second ticking by must not move the boundary.
    jest.useFakeTimers({ now: Date.now() });
    const token = await sign(nowSeconds() + 3_600, { [claim]: nowSeconds() + 61 });

    await expect(sut.verify(token)).rejects.toThrow(`The token's ${claim} claim is not accepted`);
  });

  it.each(['iat', 'nbf'])("accepts a token whose %s is less than 60 s ahead (the issuer's clock may run ahead)", async (claim) => {
    // The clock stands still between signing and verifying: a second ticking by must not move the boundary.
    jest.useFakeTimers({ now: Date.now() });
    const token = await sign(nowSeconds() + 3_600, { [claim]: nowSeconds() + 50 });

    await expect(sut.verify(token)).resolves.toMatchObject({ sub: 'ada' });
  });

  it('gives exp no allowance: a token is refused from its exp on', async () => {
    const token = await sign(nowSeconds() - 1);

    await expect(sut.verify(token)).rejects.toThrow('The token has expired');
  });
});

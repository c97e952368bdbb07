import { AppConfig, readOrCreateDevelopmentSecret, signDevelopmentToken } from '@app/platform';

/** The development token of the demo user, or undefined when real auth is configured. */
export async function developmentToken(config: AppConfig): Promise<string | undefined> {
  if (config.auth.mode !== 'development') return undefined;
  return signDevelopmentToken(readOrCreateDevelopmentSecret(config.auth.secretFile));
}

/** `npm run token`: prints a ready-to-use development token. */
export async function printToken(config: AppConfig): Promise<number> {
  const token = await developmentToken(config);
  if (!token) {
    console.error('Auth is configured (AUTH_JWT_SECRET or AUTH_JWKS_URL): use tokens of your identity provider.');
    return 1;
  }
  console.log(token);
  return 0;
}

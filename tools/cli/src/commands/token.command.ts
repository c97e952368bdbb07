import { AppConfig, DEMO_USER_CLAIMS, DevelopmentTokenClaims, readOrCreateDevelopmentSecret, signDevelopmentToken } from '@app/platform';
import { parseTokenOptions, TOKEN_USAGE, TokenOptionsError } from './token-options';

/** A development token (the demo user's unless `claims` says otherwise), or undefined when real auth is configured. */
export async function developmentToken(config: AppConfig, claims: Readonly<DevelopmentTokenClaims> = DEMO_USER_CLAIMS): Promise<string | undefined> {
  if (config.auth.mode !== 'development') return undefined;
  return signDevelopmentToken(readOrCreateDevelopmentSecret(config.auth.secretFile), claims);
}

/** `npm run token [-- --user … --orgs … --scope …]`: prints a ready-to-use development token. */
export async function printToken(config: AppConfig, args: string[]): Promise<number> {
  let request: ReturnType<typeof parseTokenOptions>;
  try {
    request = parseTokenOptions(args);
  } catch (error) {
    if (!(error instanceof TokenOptionsError)) throw error;
    console.error(`npm run token: ${error.message}\n(npm run token -- --help for the options)`);
    return 2;
  }
  if (request.help) {
    console.log(TOKEN_USAGE);
    return 0;
  }
  const token = await developmentToken(config, request.claims);
  if (!token) {
    console.error('Auth is configured (AUTH_JWT_SECRET or AUTH_JWKS_URL): use tokens of your identity provider.');
    return 1;
  }
  console.log(token);
  return 0;
}

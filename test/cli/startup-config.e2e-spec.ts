import { runBuilt } from '../support/run-command';

describe('Starting an app with a bad environment', () => {
  it('refuses NODE_ENV=production without database, auth and secrets key, in one line', async () => {
    const result = await runBuilt('dist/apps/environment/main.js', [], { NODE_ENV: 'production' });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Invalid configuration: DATABASE_URL is required when NODE_ENV=production; ' +
        'AUTH_JWT_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production; ' +
        'SECRETS_KEY is required when NODE_ENV=production\n',
    );
  });

  it('refuses NODE_ENV=production with AUTH_JWKS_URL but no AUTH_JWT_AUDIENCE, in one line naming it', async () => {
    const result = await runBuilt('dist/apps/environment/main.js', [], {
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://app:pw@127.0.0.1:3306/platform',
      AUTH_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Invalid configuration: AUTH_JWT_AUDIENCE is required when NODE_ENV=production with AUTH_JWKS_URL\n');
  });

  it('refuses a malformed variable, naming it', async () => {
    const result = await runBuilt('dist/apps/bot-admin/main.js', [], { PORT: 'not-a-port' });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Invalid configuration: PORT must be an integer number\n');
  });
});

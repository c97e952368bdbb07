import { runTs } from '../support/run-command';

describe('Starting an app with a bad environment', () => {
  it('refuses NODE_ENV=production without database, auth and secrets key, in one line', async () => {
    const result = await runTs('apps/environment/src/main.ts', [], { NODE_ENV: 'production' });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Invalid configuration: DATABASE_URL is required when NODE_ENV=production; ' +
        'AUTH_JWT_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production; ' +
        'SECRETS_KEY is required when NODE_ENV=production\n',
    );
  });

  it('refuses a malformed variable, naming it', async () => {
    const result = await runTs('apps/bot-admin/src/main.ts', [], { PORT: 'not-a-port' });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Invalid configuration: PORT must be an integer number\n');
  });
});

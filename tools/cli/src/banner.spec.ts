import { loadAppConfig } from '@app/platform';
import { banner } from './banner';

const linesOf = (env: NodeJS.ProcessEnv) => banner(loadAppConfig(env), 'ey.token.here', undefined).split('\n');

describe(banner.name, () => {
  it('says that test runs reach public addresses only, and that events go to the feed only, when nothing is admitted or configured', () => {
    const lines = linesOf({ OUTBOUND_ALLOWED_CIDRS: '' });

    expect(lines).toContain('  test runs reach: public addresses only, no private or local range admitted (OUTBOUND_ALLOWED_CIDRS admits some)');
    expect(lines).toContain('  NATS: no broker: events via the feed only (NATS_URL publishes them to NATS JetStream)');
  });

  it('names the demo echo target and the address the development default admits for it', () => {
    const lines = banner(loadAppConfig({}), 'ey.token.here', undefined, 'http://127.0.0.2:3004 (the demo connectors and the test-run examples call it)').split(
      '\n',
    );

    expect(lines).toContain('  test runs reach: public addresses, and 127.0.0.2/32 (OUTBOUND_ALLOWED_CIDRS)');
    expect(lines).toContain('  demo echo target: http://127.0.0.2:3004 (the demo connectors and the test-run examples call it)');
    expect(linesOf({}).some((line) => line.includes('echo'))).toBe(false);
  });

  it('names the ranges OUTBOUND_ALLOWED_CIDRS admits', () => {
    expect(linesOf({ OUTBOUND_ALLOWED_CIDRS: '127.0.0.2/32, 10.20.0.0/16' })).toContain(
      '  test runs reach: public addresses, and 127.0.0.2/32, 10.20.0.0/16 (OUTBOUND_ALLOWED_CIDRS)',
    );
  });

  it('names the NATS servers without their credentials, and the stream', () => {
    const text = linesOf({ NATS_URL: 'nats://relay:s3cr3t@nats-1:4222,tls://token@nats-2:4222', NATS_STREAM: 'EVENTS_1' }).join('\n');

    expect(text).toContain('  NATS: nats://nats-1:4222, tls://nats-2:4222, stream EVENTS_1\n');
    expect(text).not.toMatch(/s3cr3t|token@|relay/);
  });

  it('ends with how to stop, after the token', () => {
    const lines = linesOf({});

    expect(lines.at(-1)).toBe('Press Ctrl+C to stop.');
    expect(lines.indexOf('ey.token.here')).toBeGreaterThan(0);
  });
});

import { MIN_NATS_SERVER_VERSION, serverVersionProblem } from './nats-server-version';

describe(serverVersionProblem.name, () => {
  it.each(['2.9.4', '2.9.10', '2.10.0', 'v2.11.3', '2.10.1-RC.2', '2.12.0+a1b2c3', '3.0.0'])('accepts %s, at or above 2.9.4', (found) => {
    expect(serverVersionProblem(found, '2.9.4')).toBeUndefined();
  });

  it.each(['2.9.3', '2.2.0', '1.4.1', '2.9.4-beta.1', 'v2.9.4-RC.3'])('refuses %s, below 2.9.4 (a pre-release below its release), naming both', (found) => {
    expect(serverVersionProblem(found, '2.9.4')).toBe(`the NATS server is version ${found}; this service needs 2.9.4 or later`);
  });

  it('compares each number as a number, not as text', () => {
    expect(serverVersionProblem('2.10.0', '2.9.4')).toBeUndefined();
    expect(serverVersionProblem('2.9.10', '2.10.0')).toBe('the NATS server is version 2.9.10; this service needs 2.10.0 or later');
  });

  it.each([undefined, '', 'latest', '2.10', '2.10.0.1'])('refuses a server whose version it cannot read (%p)', (found) => {
    expect(serverVersionProblem(found, '2.9.4')).toBe(
      `the NATS server gave no version this service can read (${JSON.stringify(found ?? null)}); it needs 2.9.4 or later`,
    );
  });

  it.each(['2.10', 'next', '2.10.0-RC.1'])('refuses a minimum that is no release (%s)', (minimum) => {
    expect(() => serverVersionProblem('2.10.0', minimum)).toThrow(
      `connector events: the minimum NATS server version must be a release such as 2.9.4, got ${minimum}`,
    );
  });

  it('holds a minimum it can compare with', () => {
    expect(serverVersionProblem(MIN_NATS_SERVER_VERSION, MIN_NATS_SERVER_VERSION)).toBeUndefined();
  });
});

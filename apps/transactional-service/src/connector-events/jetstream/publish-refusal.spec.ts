import { JetStreamApiError, JetStreamError } from '@nats-io/jetstream';
import { errors, InvalidArgumentError, PermissionViolationError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { isRefusal } from './publish-refusal';

/** JetStream's answer to a publish it refused, as the client throws it. */
const answered = (code: number, err_code: number, description: string) => new JetStreamApiError({ code, err_code, description });

describe(isRefusal.name, () => {
  it.each([
    ['too large for the stream (max_msg_size)', answered(400, 10054, 'message size exceeds maximum allowed')],
    ['another stream took the subject (Nats-Expected-Stream)', answered(400, 10060, 'expected stream does not match')],
    ['an expectation of the message it does not meet', answered(400, 10071, 'wrong last sequence: 4')],
  ])('counts JetStream refusing the message: %s', (_, error) => {
    expect(isRefusal(error)).toBe(true);
  });

  it("counts a message the client will not send: larger than the server's max_payload", () => {
    expect(isRefusal(InvalidArgumentError.format('payload', 'max_payload size exceeded'))).toBe(true);
  });

  it("counts a subject the server refuses to this connection's user", () => {
    expect(isRefusal(new PermissionViolationError('Permissions Violation for Publish to "x.y"', 'publish', 'x.y'))).toBe(true);
  });

  it.each([
    ['JetStream unavailable (503: no resources, no leader)', answered(503, 10023, 'insufficient resources')],
    ['a store that failed (503: a limit of the stream with discard new)', answered(503, 10077, 'maximum messages per subject exceeded')],
    ['no answer in time', new TimeoutError()],
    ['no stream answered the subject', new JetStreamError('jetstream is not enabled')],
    ['the connection closed', new errors.ClosedConnectionError()],
    ['a request that failed on its way', new RequestError('request failed')],
    ['another invalid argument', InvalidArgumentError.format('timeout', 'must be positive')],
    ['anything else', new Error('disconnected from NATS')],
  ])('does not count the broker state: %s', (_, error) => {
    expect(isRefusal(error)).toBe(false);
  });
});

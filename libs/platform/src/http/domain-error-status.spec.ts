import { BotNotFoundException, DomainError, InvalidInputError } from '@app/domain';
import { describeDomainError } from './domain-error-status';

describe(describeDomainError.name, () => {
  it("answers a code's status with the error's message", () => {
    expect(describeDomainError(new BotNotFoundException('env-1', 'bot-1'))).toEqual({ status: 404, message: 'Bot bot-1 not found in environment env-1' });
    expect(describeDomainError(new DomainError('IDEMPOTENCY_KEY_REUSED', 'reused'))).toEqual({ status: 422, message: 'reused' });
    expect(describeDomainError(new DomainError('CONNECTOR_CHANGED', 'changed'))).toEqual({ status: 412, message: 'changed' });
  });

  it('answers invalid input as a 400 listing every problem', () => {
    expect(describeDomainError(new InvalidInputError(['name is required', 'url is required']))).toEqual({
      status: 400,
      message: ['name is required', 'url is required'],
    });
  });
});

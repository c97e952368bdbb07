import { ArgumentsHost, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';

function hostFor(res: { status: jest.Mock; json: jest.Mock; setHeader: jest.Mock; getHeader: jest.Mock; headersSent: boolean }) {
  const req = { id: 'req-1', originalUrl: '/platform-transactional-service/x', url: '/x' };
  return { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
}

function response() {
  const res = { status: jest.fn(), json: jest.fn(), setHeader: jest.fn(), getHeader: jest.fn(), headersSent: false };
  res.status.mockReturnValue(res);
  return res;
}

describe(AllExceptionsFilter.name, () => {
  let logged: unknown[];
  let warned: unknown[];

  beforeEach(() => {
    logged = [];
    warned = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((...args: unknown[]) => {
      warned.push(args);
    });
    jest.spyOn(Logger.prototype, 'error').mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers a failed query 500 without detail and logs it without its SQL parameters', () => {
    const sut = new AllExceptionsFilter();
    const res = response();
    const error = new QueryFailedError(
      'UPDATE rest_connectors SET bearer_token = ?',
      ['enc-or-clear-canary-123'],
      Object.assign(new Error('Data too long'), { code: 'ER_DATA_TOO_LONG' }),
    );

    sut.catch(error, hostFor(res));

    expect(res.status).toHaveBeenCalledWith(500);
    expect(res.json).toHaveBeenCalledWith(expect.objectContaining({ statusCode: 500, message: 'Internal server error', requestId: 'req-1' }));
    expect(JSON.stringify(res.json.mock.calls)).not.toContain('canary');
    expect(JSON.stringify(logged)).toContain('ER_DATA_TOO_LONG');
    expect(JSON.stringify(logged)).not.toContain('canary');
  });

  it('answers an unreachable database 503 with Retry-After', () => {
    const sut = new AllExceptionsFilter();
    const res = response();

    sut.catch(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' }), hostFor(res));

    expect(res.status).toHaveBeenCalledWith(503);
    expect(res.setHeader).toHaveBeenCalledWith('Retry-After', '5');
    expect(res.json).toHaveBeenCalledWith(expect.objectContaining({ statusCode: 503, error: 'Service Unavailable' }));
    // A refusal with Retry-After, not an unexpected failure: a warning with its cause, no error line.
    expect(logged).toEqual([]);
    expect(warned).toHaveLength(1);
  });

  it.each([
    ['a MySQL deadlock', 'ER_LOCK_DEADLOCK'],
    ['a MySQL lock wait timeout', 'ER_LOCK_WAIT_TIMEOUT'],
    ['a busy SQLite file', 'SQLITE_BUSY'],
  ])('answers %s that outlasted its retries 503 with Retry-After, not 500', (_what, code) => {
    const sut = new AllExceptionsFilter();
    const res = response();

    sut.catch(new QueryFailedError('UPDATE rest_connectors SET name = ?', ['x'], Object.assign(new Error('lock'), { code })), hostFor(res));

    expect(res.status).toHaveBeenCalledWith(503);
    expect(res.setHeader).toHaveBeenCalledWith('Retry-After', '5');
    expect(res.json).toHaveBeenCalledWith(expect.objectContaining({ statusCode: 503, message: 'The database is busy; retry later' }));
  });
});

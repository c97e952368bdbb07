import { strictFake } from '../../../../test/support/strict-fake';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyKeyReusedException } from './idempotency.exceptions';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService, IdempotentRequest } from './idempotency.service';

const REQUEST: IdempotentRequest = { callerSub: 'alice', key: 'k1', fingerprint: 'f1' };
const ID = { callerSub: 'alice', idempotencyKey: 'k1' };
const duplicateKey = () => Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });
const held = (overrides: Partial<IdempotencyKey>): IdempotencyKey => ({
  ...ID,
  fingerprint: 'f1',
  state: 'completed',
  responseStatus: 201,
  responseBody: { uuid: 'first' },
  lockedAt: new Date(),
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});

function newTestService() {
  const keys = strictFake(IdempotencyRepository);
  keys.deleteExpired.mockResolvedValue();
  keys.release.mockResolvedValue();
  return { sut: new IdempotencyService(keys), keys };
}

describe(IdempotencyService.name, () => {
  describe('once', () => {
    it('runs the write without a key, and touches no key', async () => {
      const { sut } = newTestService();
      const write = jest.fn().mockResolvedValue('written');

      await expect(sut.once(undefined, write, () => 'replayed')).resolves.toBe('written');
      expect(write).toHaveBeenCalledWith(undefined);
    });

    it('takes the key, then runs the write with the request (its unit of work stores the answer)', async () => {
      const { sut, keys } = newTestService();
      keys.insert.mockResolvedValue();
      const write = jest.fn().mockResolvedValue('written');

      await expect(sut.once(REQUEST, write, () => 'replayed')).resolves.toBe('written');
      expect(keys.insert).toHaveBeenCalledWith(expect.objectContaining({ ...ID, fingerprint: 'f1', state: 'in_progress' }));
      expect(write).toHaveBeenCalledWith(REQUEST);
    });

    it('answers the stored answer to a retry of a completed request, without running the write', async () => {
      const { sut, keys } = newTestService();
      keys.insert.mockRejectedValue(duplicateKey());
      keys.find.mockResolvedValue(held({}));
      const write = jest.fn();

      await expect(sut.once(REQUEST, write, ({ body }) => `replayed ${String(body.uuid)}`)).resolves.toBe('replayed first');
      expect(write).not.toHaveBeenCalled();
    });

    it('is a 422 for the key with another request, running nothing and keeping the key', async () => {
      const { sut, keys } = newTestService();
      keys.insert.mockRejectedValue(duplicateKey());
      keys.find.mockResolvedValue(held({ fingerprint: 'another' }));
      const write = jest.fn();

      await expect(sut.once(REQUEST, write, () => 'replayed')).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
      expect(write).not.toHaveBeenCalled();
      expect(keys.release).not.toHaveBeenCalled();
    });

    it("frees the key when the write fails, and throws the write's error", async () => {
      const { sut, keys } = newTestService();
      keys.insert.mockResolvedValue();
      const failure = new Error('refused');

      await expect(
        sut.once(
          REQUEST,
          () => Promise.reject(failure),
          () => 'replayed',
        ),
      ).rejects.toBe(failure);
      expect(keys.release).toHaveBeenCalledWith(ID);
    });
  });
});

import Redis from 'ioredis';

/** The Redis the rate-limit tests count in (set TEST_REDIS_URL to change it); `.ci/run` starts it when it is not answering. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers PING within a second (global-setup refuses to run the suite without it). */
export async function redisAnswers(url = TEST_REDIS_URL): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

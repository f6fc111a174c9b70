/**
 * The real Redis of the test machine (127.0.0.1:6379; override with PARLEY_TEST_REDIS_URL). Suites
 * skip with a message when it is unreachable, unless REQUIRE_REDIS=1 or REQUIRE_POSTGRES=1 (CI's
 * switch for "the real databases must be there"), where they fail.
 */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env['PARLEY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

let reachable: Promise<string | undefined> | undefined;

function unreachableReason(): Promise<string | undefined> {
  reachable ??= (async () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
    try {
      await client.connect();
      await client.ping();
      return undefined;
    } catch (error) {
      return String(error);
    } finally {
      client.disconnect();
    }
  })();
  return reachable;
}

export async function requireRedis(context: Mocha.Context): Promise<void> {
  const reason = await unreachableReason();
  if (reason === undefined) return;
  if (process.env['REQUIRE_REDIS'] === '1' || process.env['REQUIRE_POSTGRES'] === '1')
    throw new Error(`Redis (${REDIS_URL}) is required but unreachable: ${reason}`);
  console.warn(
    `    ⚠ skipping: Redis at ${REDIS_URL} is unreachable (${reason}); set REQUIRE_REDIS=1 to fail instead`,
  );
  context.skip();
}

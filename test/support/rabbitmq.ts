/**
 * The real RabbitMQ of the test machine (127.0.0.1:5672, guest/guest; override with
 * PARLEY_TEST_RABBITMQ_URL). Suites skip with one line when it is unreachable, unless REQUIRE_RABBITMQ=1
 * (CI), where they fail. Each test names its own exchange and queues (`uniqueNames`) and deletes them.
 */
import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import type { Channel, ChannelModel } from 'amqplib';

export const RABBITMQ_URL = process.env['PARLEY_TEST_RABBITMQ_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';

export const RABBITMQ_HOST = new URL(RABBITMQ_URL).hostname;
export const RABBITMQ_PORT = Number(new URL(RABBITMQ_URL).port || 5672);

let reachable: Promise<string | undefined> | undefined;

function unreachableReason(): Promise<string | undefined> {
  reachable ??= amqp.connect(RABBITMQ_URL, { timeout: 2000 }).then(
    async (connection) => {
      await connection.close();
      return undefined;
    },
    (error: unknown) => String(error),
  );
  return reachable;
}

/** Call in a `before` hook: skips the suite (one line) when RabbitMQ is unreachable, fails with REQUIRE_RABBITMQ=1. */
export async function requireRabbitmq(context: Mocha.Context): Promise<void> {
  const reason = await unreachableReason();
  if (reason === undefined) return;
  if (process.env['REQUIRE_RABBITMQ'] === '1')
    throw new Error(`RabbitMQ (${RABBITMQ_URL}) is required (REQUIRE_RABBITMQ=1) but unreachable: ${reason}`);
  console.warn(
    `    ⚠ skipping: RabbitMQ at ${RABBITMQ_URL} is unreachable (${reason}); set REQUIRE_RABBITMQ=1 to fail instead`,
  );
  context.skip();
}

export interface TestNames {
  readonly exchange: string;
  readonly queues: readonly string[];
}

export function uniqueNames(queueCount = 1): TestNames {
  const id = randomBytes(4).toString('hex');
  return {
    exchange: `parley-test-${id}`,
    queues: Array.from({ length: queueCount }, (_, index) => `parley_test_${id}_${index}`),
  };
}

/** A plain AMQP client of the test's own, to read queues and clean up. */
export class RabbitReader {
  private constructor(
    private readonly connection: ChannelModel,
    private readonly channel: Channel,
  ) {}

  static async open(): Promise<RabbitReader> {
    const connection = await amqp.connect(RABBITMQ_URL, { timeout: 3000 });
    const channel = await connection.createChannel();
    return new RabbitReader(connection, channel);
  }

  /** Every message in the queue now, parsed, oldest first (acknowledged: they leave the queue). */
  async drain(queue: string): Promise<Record<string, unknown>[]> {
    const bodies: Record<string, unknown>[] = [];
    for (;;) {
      const message = await this.channel.get(queue, { noAck: true });
      if (message === false) return bodies;
      bodies.push(JSON.parse(message.content.toString('utf8')) as Record<string, unknown>);
    }
  }

  /** Reads the queue until `count` messages came or `timeoutMs` passed. */
  async waitFor(queue: string, count: number, timeoutMs = 10_000): Promise<Record<string, unknown>[]> {
    const bodies: Record<string, unknown>[] = [];
    const deadline = Date.now() + timeoutMs;
    while (bodies.length < count && Date.now() < deadline) {
      const more = await this.drain(queue);
      bodies.push(...more);
      if (more.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return bodies;
  }

  /** One message with its properties, waiting up to `timeoutMs` for it. */
  async getRaw(
    queue: string,
    timeoutMs: number,
  ): Promise<{ content: string; properties: Record<string, unknown> } | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const message = await this.channel.get(queue, { noAck: true });
      if (message !== false)
        return {
          content: message.content.toString('utf8'),
          properties: message.properties as unknown as Record<string, unknown>,
        };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return undefined;
  }

  /** The exchange as Rasa (aio-pika) declares it: a non-durable fanout. */
  async declareRasaExchange(names: TestNames): Promise<void> {
    await this.channel.assertExchange(names.exchange, 'fanout', { durable: false });
  }

  async messageCount(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).messageCount;
  }

  async remove(names: TestNames): Promise<void> {
    for (const queue of names.queues) await this.channel.deleteQueue(queue);
    await this.channel.deleteExchange(names.exchange);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

import { expect } from 'chai';
import type { Event } from '../../../src/core/events/types.js';
import type { EventBrokerObserver } from '../../../src/core/ports.js';
import type { AppError } from '../../../src/core/errors.js';
import type { BrokerMessage, BrokerTransport } from '../../../src/stores/brokers/buffered-event-broker.js';
import { BufferedEventBroker } from '../../../src/stores/brokers/buffered-event-broker.js';
import { recordingLogger } from '../../support/recording-logger.js';

/** A transport whose broker can be taken away: `send` fails while `down`, or hangs while `hung`. */
class ScriptedTransport implements BrokerTransport {
  readonly received: BrokerMessage[] = [];
  maxMessageBytes: number | undefined;
  down = false;
  attempts = 0;
  connects = 0;
  disconnected = false;

  describe(): string {
    return 'scripted broker';
  }

  async connect(): Promise<void> {
    this.connects += 1;
    await Promise.resolve();
    if (this.down) throw new Error('connection refused');
  }

  async send(batch: readonly BrokerMessage[]): Promise<void> {
    this.attempts += 1;
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (this.down) throw new Error('connection refused');
    this.received.push(...batch);
  }

  async disconnect(): Promise<void> {
    this.disconnected = true;
    await Promise.resolve();
  }
}

function counting(): EventBrokerObserver & {
  published: number;
  dropped: number;
  failed: number;
  backlog: number;
} {
  return {
    published: 0,
    dropped: 0,
    failed: 0,
    backlog: 0,
    brokerEventsPublished(count) {
      this.published += count;
    },
    brokerEventsDropped(count) {
      this.dropped += count;
    },
    brokerPublishFailed() {
      this.failed += 1;
    },
    brokerBacklog(count) {
      this.backlog = count;
    },
  };
}

const bot = (index: number): Event => ({ event: 'bot', timestamp: index, text: `m${index}` }) as Event;

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const texts = (messages: readonly BrokerMessage[]) =>
  messages.map((message) => (JSON.parse(message.body) as { text: string }).text);

describe('BufferedEventBroker', () => {
  it("publishes Rasa's event JSON with sender_id first, in the order given", async () => {
    const transport = new ScriptedTransport();
    const broker = new BufferedEventBroker({ transport, batchSize: 3 });
    broker.publish('alice', [bot(1), bot(2)]);
    broker.publish('bob', [bot(3)]);
    broker.publish('alice', [bot(4), bot(5), bot(6), bot(7)]);
    await broker.close();
    expect(transport.received.map((message) => message.senderId)).to.deep.equal([
      'alice',
      'alice',
      'bob',
      'alice',
      'alice',
      'alice',
      'alice',
    ]);
    expect(texts(transport.received)).to.deep.equal(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    expect(Object.keys(JSON.parse(transport.received[0]?.body ?? '{}') as object)).to.deep.equal([
      'sender_id',
      'event',
      'timestamp',
      'text',
    ]);
    expect(broker.published).to.equal(7);
  });

  it('returns from publish at once while the broker is away, and retries with backoff until it is back', async () => {
    const transport = new ScriptedTransport();
    transport.down = true;
    const observer = counting();
    const logger = recordingLogger();
    const broker = new BufferedEventBroker({
      transport,
      observer,
      logger,
      initialRetryDelayMs: 5,
      maxRetryDelayMs: 20,
    });
    const started = performance.now();
    for (let index = 0; index < 50; index += 1) broker.publish('c', [bot(index)]);
    expect(performance.now() - started).to.be.below(50);
    await until(() => observer.failed >= 4);
    expect(observer.backlog).to.equal(50);
    expect(logger.warnings.filter((line) => line.includes('publish failed'))).to.have.length.of.at.least(1);
    transport.down = false;
    await until(() => transport.received.length === 50);
    expect(texts(transport.received)).to.deep.equal(Array.from({ length: 50 }, (_, index) => `m${index}`));
    expect(observer).to.include({ published: 50, dropped: 0, backlog: 0 });
    expect(logger.messages).to.include('event broker reachable again: publishing the buffered events');
    await broker.close();
  });

  it('drops the oldest events beyond its bound, counts and logs them, and keeps the newest in order', async () => {
    const transport = new ScriptedTransport();
    transport.down = true;
    const observer = counting();
    const logger = recordingLogger();
    const broker = new BufferedEventBroker({
      transport,
      observer,
      logger,
      maxBuffered: 10,
      batchSize: 4,
      initialRetryDelayMs: 5,
      maxRetryDelayMs: 10,
    });
    for (let index = 0; index < 25; index += 1) broker.publish('c', [bot(index)]);
    // the first event went out alone and failed; back in the buffer, it is the oldest there
    await until(() => observer.failed >= 1);
    expect(broker.dropped).to.equal(15);
    expect(observer.dropped).to.equal(15);
    expect(broker.backlog).to.be.at.most(10);
    expect(logger.messages).to.include('event broker: events dropped without being published');
    transport.down = false;
    await until(() => broker.backlog === 0);
    expect(texts(transport.received)).to.deep.equal(
      Array.from({ length: 10 }, (_, index) => `m${index + 15}`),
    );
    await broker.close();
  });

  it('close publishes what waits, when the broker answers within the bound', async () => {
    const transport = new ScriptedTransport();
    transport.down = true;
    const broker = new BufferedEventBroker({ transport, initialRetryDelayMs: 1000, closeTimeoutMs: 3000 });
    broker.publish('c', [bot(1), bot(2)]);
    await until(() => transport.attempts >= 1);
    setTimeout(() => (transport.down = false), 100);
    const started = performance.now();
    await broker.close();
    // the pending 1 s backoff was cut short by close
    expect(performance.now() - started).to.be.below(900);
    expect(texts(transport.received)).to.deep.equal(['m1', 'm2']);
    expect(transport.disconnected).to.equal(true);
  });

  it('close gives up after its bound when the broker stays away, counting what it leaves as dropped', async () => {
    const transport = new ScriptedTransport();
    transport.down = true;
    const observer = counting();
    const logger = recordingLogger();
    const broker = new BufferedEventBroker({ transport, observer, logger, closeTimeoutMs: 300 });
    broker.publish('c', [bot(1), bot(2), bot(3)]);
    const started = performance.now();
    await broker.close();
    const took = performance.now() - started;
    expect(took).to.be.within(250, 1500);
    expect(observer).to.include({ dropped: 3, published: 0, backlog: 0 });
    expect(logger.messages).to.include(
      'event broker closed with events not published (the broker did not take them in time)',
    );
    // publishing after close is refused as dropped, never thrown into a turn
    broker.publish('c', [bot(4)]);
    expect(observer.dropped).to.equal(4);
  });

  it('open warns and carries on when the broker is away; with raiseOnFailure it fails after its attempts', async () => {
    const transport = new ScriptedTransport();
    transport.down = true;
    const logger = recordingLogger();
    const lenient = new BufferedEventBroker({ transport, logger });
    await lenient.open();
    expect(logger.warnings[0]).to.contain('unreachable at start-up');
    await lenient.close();

    const strict = new BufferedEventBroker({
      transport,
      raiseOnFailure: true,
      connectionAttempts: 3,
      maxRetryDelayMs: 10,
    });
    transport.connects = 0;
    const error = await strict.open().then(
      () => undefined,
      (caught: unknown) => caught as AppError,
    );
    expect(error?.code).to.equal('STORE_UNAVAILABLE');
    expect(transport.connects).to.equal(3);
  });

  it('drops an event larger than the broker takes when it is published, and keeps the rest flowing', async () => {
    const transport = new ScriptedTransport();
    transport.maxMessageBytes = 200;
    const observer = counting();
    const errors: Record<string, unknown>[] = [];
    const logger = {
      ...recordingLogger(),
      error: (fields: Record<string, unknown>, message: string) => errors.push({ ...fields, message }),
    };
    const broker = new BufferedEventBroker({ transport, observer, logger });
    await broker.open();
    const text = (length: number) => ({ event: 'bot', timestamp: 1, text: 'é'.repeat(length) }) as Event;
    // 60 two-byte characters fit in 200 bytes with the envelope; 90 do not, although 90 characters would
    broker.publish('big', [text(60), text(90), text(10)]);
    expect(broker.backlog).to.equal(2);
    await broker.close();
    expect(
      transport.received.map((message) => (JSON.parse(message.body) as { text: string }).text.length),
    ).to.deep.equal([60, 10]);
    expect(observer.dropped).to.equal(1);
    expect(broker.dropped).to.equal(1);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.deep.include({
      message: 'event broker: events dropped without being published',
      dropped: 1,
      reason: 'larger than the broker takes (200 bytes)',
    });
  });
});

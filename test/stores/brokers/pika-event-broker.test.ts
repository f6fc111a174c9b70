import { expect } from 'chai';
import { BufferedEventBroker } from '../../../src/stores/brokers/buffered-event-broker.js';
import type { PikaSettings } from '../../../src/stores/brokers/pika-config.js';
import { PikaTransport } from '../../../src/stores/brokers/pika-transport.js';
import { MemoryTrackerStore } from '../../../src/stores/memory-tracker-store.js';
import { ServerMetrics } from '../../../src/server/metrics.js';
import {
  RabbitReader,
  RABBITMQ_HOST,
  RABBITMQ_PORT,
  requireRabbitmq,
  uniqueNames,
} from '../../support/rabbitmq.js';
import type { TestNames } from '../../support/rabbitmq.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { recordingLogger } from '../../support/recording-logger.js';
import { sample, say, startBrokerServer } from './broker-server.js';
import { bot, interleavedPublisher, numbersOf, perConversation } from './broker-traffic.js';

function settings(names: TestNames, port = RABBITMQ_PORT): PikaSettings {
  return {
    protocol: 'amqp',
    hostname: RABBITMQ_HOST,
    port,
    username: 'guest',
    password: 'guest',
    vhost: '/',
    queues: names.queues,
    exchange: names.exchange,
    raiseOnFailure: false,
    connectionAttempts: 1,
    retryDelayMs: 200,
    tls: {},
  };
}

function endpoints(names: TestNames, port = RABBITMQ_PORT): string {
  return [
    'event_broker:',
    '  type: pika',
    `  url: ${RABBITMQ_HOST}`,
    `  port: ${port}`,
    '  username: guest',
    '  password: guest',
    `  exchange_name: ${names.exchange}`,
    `  retry_delay_in_seconds: 0.2`,
    '  queues:',
    ...names.queues.map((queue) => `    - ${queue}`),
    '',
  ].join('\n');
}

describe('pika event broker on a real RabbitMQ', function () {
  this.timeout(20_000);
  let reader: RabbitReader;
  const cleanups: (() => Promise<void>)[] = [];

  before(async function () {
    await requireRabbitmq(this);
    reader = await RabbitReader.open();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  after(async () => {
    await reader?.close();
  });

  function track(names: TestNames): TestNames {
    cleanups.push(() => reader.remove(names));
    return names;
  }

  it("publishes a REST turn's stored events, in order, with sender_id, to every queue", async () => {
    const names = track(uniqueNames(3));
    const trackerStore = new MemoryTrackerStore();
    const running = await startBrokerServer({ endpoints: endpoints(names), trackerStore });
    cleanups.push(() => running.close());
    expect((await say(running.server, 'ada')).slice(0, 2)).to.deep.equal(['Hello!', 'And more.']);
    await say(running.server, 'ada');
    const stored = (await trackerStore.loadAll('ada')).map((event) => ({ sender_id: 'ada', ...event }));
    expect(stored.length).to.be.greaterThan(6);
    for (const queue of names.queues) {
      const received = await reader.waitFor(queue, stored.length);
      expect(received).to.deep.equal(JSON.parse(JSON.stringify(stored)));
    }
    const metrics = await running.server.metrics.text();
    expect(sample(metrics, 'parley_event_broker_published_events_total')).to.equal(stored.length);
    expect(sample(metrics, 'parley_event_broker_backlog_events')).to.equal(0);
  });

  it('declares the exchange and queues durable and publishes persistent JSON, as Rasa does', async () => {
    const names = track(uniqueNames(1));
    const broker = new BufferedEventBroker({ transport: new PikaTransport({ settings: settings(names) }) });
    await broker.open();
    broker.publish('grace', [bot(1, 1)]);
    await broker.close();
    const [queue] = names.queues;
    const message = await waitForRaw(reader, queue ?? '');
    expect(message.properties).to.include({ deliveryMode: 2, contentType: 'application/json' });
    expect(JSON.parse(message.content)).to.deep.equal({
      sender_id: 'grace',
      event: 'bot',
      timestamp: 1,
      text: 'c1-1',
    });
  });

  it('publishes to an exchange Rasa made (non-durable) as it is, with a warning, instead of failing', async () => {
    const names = track(uniqueNames(1));
    await reader.declareRasaExchange(names);
    const logger = recordingLogger();
    const broker = new BufferedEventBroker({
      transport: new PikaTransport({ settings: settings(names), logger }),
      logger,
    });
    await broker.open();
    broker.publish('hopper', [bot(2, 1), bot(2, 2)]);
    await broker.close();
    expect(logger.warnings.some((line) => line.includes('exchange exists with other settings'))).to.equal(
      true,
    );
    const received = await reader.waitFor(names.queues[0] ?? '', 2);
    expect(received.map((message) => message['text'])).to.deep.equal(['c2-1', 'c2-2']);
  });

  it('loses nothing and keeps each conversation in order across a broker outage', async () => {
    const names = track(uniqueNames(2));
    const proxy = await TcpProxy.start({ targetHost: RABBITMQ_HOST, targetPort: RABBITMQ_PORT });
    cleanups.push(() => proxy.close());
    const logger = recordingLogger();
    const broker = new BufferedEventBroker({
      transport: new PikaTransport({ settings: settings(names, proxy.port), logger, connectTimeoutMs: 1000 }),
      logger,
      batchSize: 20,
      maxRetryDelayMs: 200,
    });
    await broker.open();
    const perPhase = 200;
    const publishSome = interleavedPublisher(broker, 3);
    await publishSome(perPhase);
    // the broker goes away while batches are in flight
    await proxy.pause();
    await publishSome(perPhase);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(broker.backlog).to.be.greaterThan(0);
    const resumed = performance.now();
    await proxy.resume();
    await publishSome(perPhase);
    while (broker.backlog > 0 && performance.now() - resumed < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const recoveryMs = performance.now() - resumed;
    await broker.close();
    const total = perPhase * 3;
    let duplicates = 0;
    for (const queue of names.queues) {
      const received = await reader.waitFor(queue, total, 5000);
      const conversationsSeen = perConversation(received);
      const unique = [...conversationsSeen.values()].reduce((sum, list) => sum + list.length, 0);
      expect(unique, 'events lost').to.equal(total);
      duplicates += received.length - unique;
      for (const [sender, texts] of conversationsSeen) {
        const numbers = numbersOf(texts);
        expect(numbers, `order of ${sender}`).to.deep.equal([...numbers].sort((a, b) => a - b));
      }
    }
    expect(broker.dropped).to.equal(0);
    expect(logger.messages).to.include('event broker reachable again: publishing the buffered events');
    console.log(
      `      broker outage: 0 of ${total} events lost, ${duplicates} redelivered, in order; backlog empty ${Math.round(recoveryMs)} ms after the broker came back`,
    );
  });

  it('drops the oldest events beyond the buffer while the broker is away, and counts them in /metrics', async () => {
    const names = track(uniqueNames(1));
    const proxy = await TcpProxy.start({ targetHost: RABBITMQ_HOST, targetPort: RABBITMQ_PORT });
    cleanups.push(() => proxy.close());
    await proxy.pause();
    const metrics = new ServerMetrics({ processMetrics: false });
    const broker = new BufferedEventBroker({
      transport: new PikaTransport({ settings: settings(names, proxy.port), connectTimeoutMs: 500 }),
      observer: metrics,
      maxBuffered: 50,
      batchSize: 10,
      maxRetryDelayMs: 100,
    });
    await broker.open();
    for (let index = 0; index < 120; index += 1) broker.publish('c', [bot(0, index)]);
    const down = await metrics.text();
    expect(sample(down, 'parley_event_broker_dropped_events_total')).to.be.at.least(69);
    expect(sample(down, 'parley_event_broker_backlog_events')).to.be.at.most(51);
    await proxy.resume();
    await broker.close();
    const received = await reader.waitFor(names.queues[0] ?? '', 50, 5000);
    const texts = [...new Set(received.map((message) => String(message['text'])))];
    // the newest 50 survive, in order
    expect(texts.slice(-49)).to.deep.equal(Array.from({ length: 49 }, (_, n) => `c0-${n + 71}`));
    const after = await metrics.text();
    expect(sample(after, 'parley_event_broker_dropped_events_total')).to.equal(broker.dropped);
    expect(broker.dropped + texts.length).to.equal(120);
    expect(sample(after, 'parley_event_broker_publish_failures_total')).to.be.at.least(1);
  });

  it('keeps REST turns fast while the broker is refused or silent', async () => {
    const names = track(uniqueNames(1));
    const proxy = await TcpProxy.start({ targetHost: RABBITMQ_HOST, targetPort: RABBITMQ_PORT });
    cleanups.push(() => proxy.close());
    await proxy.pause();
    const logger = recordingLogger();
    const running = await startBrokerServer({ endpoints: endpoints(names, proxy.port), logger });
    cleanups.push(() => running.close());
    expect(logger.warnings).to.include(
      'event broker unreachable at start-up: events are buffered and published once it answers',
    );
    const timeTurns = async (sender: string) => {
      const times: number[] = [];
      for (let turn = 0; turn < 10; turn += 1) {
        const started = performance.now();
        expect((await say(running.server, sender)).slice(0, 2)).to.deep.equal(['Hello!', 'And more.']);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    const refused = await timeTurns('refused');
    await proxy.resume();
    await proxy.pause('freeze');
    const silent = await timeTurns('silent');
    const metrics = await running.server.metrics.text();
    expect(sample(metrics, 'parley_event_broker_backlog_events')).to.be.greaterThan(0);
    expect(sample(metrics, 'parley_event_broker_published_events_total')).to.equal(0);
    console.log(
      `      turn times with the broker away: refused max ${Math.round(refused.at(-1) ?? 0)} ms, silent max ${Math.round(silent.at(-1) ?? 0)} ms`,
    );
    expect(refused.at(-1)).to.be.below(500);
    expect(silent.at(-1)).to.be.below(500);
    // the events wait: back on a working broker, they all go out before the server stops
    await proxy.resume();
    await running.close();
    cleanups.pop();
    const received = await reader.waitFor(names.queues[0] ?? '', 1, 5000);
    expect(received.length).to.be.greaterThan(0);
  });
});

async function waitForRaw(
  reader: RabbitReader,
  queue: string,
): Promise<{ content: string; properties: Record<string, unknown> }> {
  const raw = await reader.getRaw(queue, 5000);
  if (!raw) throw new Error(`no message in ${queue}`);
  return raw;
}

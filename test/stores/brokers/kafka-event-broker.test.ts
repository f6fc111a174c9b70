import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Event } from '../../../src/core/events/types.js';
import { BufferedEventBroker } from '../../../src/stores/brokers/buffered-event-broker.js';
import type { KafkaSettings } from '../../../src/stores/brokers/kafka-config.js';
import { KAFKA_MAX_MESSAGE_BYTES, KafkaTransport } from '../../../src/stores/brokers/kafka-transport.js';
import { MemoryTrackerStore } from '../../../src/stores/memory-tracker-store.js';
import { MockKafka, requireKcat } from '../../support/kafka-mock.js';
import type { KafkaRecord } from '../../support/kafka-mock.js';
import { recordingLogger } from '../../support/recording-logger.js';
import { sample, say, startBrokerServer } from './broker-server.js';
import { bot, interleavedPublisher, numbersOf, perConversation } from './broker-traffic.js';

function settings(bootstrap: string, topic: string, more: Partial<KafkaSettings> = {}): KafkaSettings {
  return {
    brokers: [bootstrap],
    topic,
    clientId: 'parley-test',
    partitionBySender: false,
    protocol: 'PLAINTEXT',
    convertIntentIdToString: false,
    ...more,
  };
}

const uniqueTopic = () => `parley_test_${randomBytes(4).toString('hex')}`;

const payloads = (records: readonly KafkaRecord[]) =>
  records.map((record) => JSON.parse(record.payload) as Record<string, unknown>);

/** The partitions each sender's records went to. */
function partitionsBySender(records: readonly KafkaRecord[]): Map<string, Set<number>> {
  const result = new Map<string, Set<number>>();
  for (const record of records) {
    const sender = String((JSON.parse(record.payload) as { sender_id: unknown }).sender_id);
    result.set(sender, (result.get(sender) ?? new Set()).add(record.partition));
  }
  return result;
}

describe("kafka event broker on librdkafka's mock Kafka cluster", function () {
  this.timeout(30_000);
  const cleanups: (() => Promise<void>)[] = [];

  before(function () {
    requireKcat(this);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function mockKafka(topic: string): Promise<MockKafka> {
    const kafka = await MockKafka.start(topic);
    cleanups.push(() => kafka.stop());
    return kafka;
  }

  async function publishAll(transport: KafkaTransport, publish: (broker: BufferedEventBroker) => void) {
    const broker = new BufferedEventBroker({ transport });
    await broker.open();
    publish(broker);
    await broker.close();
    expect(broker.backlog).to.equal(0);
  }

  it("publishes a REST turn's stored events, in order, with sender_id, as configured in endpoints.yml", async () => {
    const topic = uniqueTopic();
    const kafka = await mockKafka(topic);
    const trackerStore = new MemoryTrackerStore();
    const endpoints = [
      'event_broker:',
      '  type: kafka',
      `  url: ${kafka.bootstrap}`,
      `  topic: ${topic}`,
      '  security_protocol: PLAINTEXT',
      '  partition_by_sender: true',
      '',
    ].join('\n');
    const running = await startBrokerServer({ endpoints, trackerStore });
    cleanups.push(() => running.close());
    expect((await say(running.server, 'ada')).slice(0, 2)).to.deep.equal(['Hello!', 'And more.']);
    await say(running.server, 'ada');
    const stored = (await trackerStore.loadAll('ada')).map((event) => ({ sender_id: 'ada', ...event }));
    expect(stored.length).to.be.greaterThan(6);
    const records = await kafka.waitFor(stored.length);
    expect(payloads(records)).to.deep.equal(JSON.parse(JSON.stringify(stored)));
    expect(new Set(records.map((record) => record.key))).to.deep.equal(new Set(['ada']));
    expect(new Set(records.map((record) => record.partition)).size).to.equal(1);
    const metrics = await running.server.metrics.text();
    expect(sample(metrics, 'parley_event_broker_published_events_total')).to.equal(stored.length);
    expect(sample(metrics, 'parley_event_broker_backlog_events')).to.equal(0);
  });

  it("keeps each conversation on one partition without a key, the partition Kafka's partitioner gives its sender id", async () => {
    const topic = uniqueTopic();
    const kafka = await mockKafka(topic);
    const senders = Array.from({ length: 12 }, (_, index) => `sender-${index}`);
    const publish = (broker: BufferedEventBroker) => {
      for (let index = 0; index < 5; index += 1)
        senders.forEach((sender, conversation) => broker.publish(sender, [bot(conversation, index)]));
    };
    await publishAll(new KafkaTransport({ settings: settings(kafka.bootstrap, topic) }), publish);
    const unkeyed = await kafka.waitFor(60);
    expect(unkeyed).to.have.length(60);
    expect(unkeyed.every((record) => record.key === null)).to.equal(true);
    const withoutKey = partitionsBySender(unkeyed);
    expect([...withoutKey.values()].every((partitions) => partitions.size === 1)).to.equal(true);
    // twelve senders over four partitions: not all on one
    expect(new Set([...withoutKey.values()].flatMap((partitions) => [...partitions])).size).to.be.above(1);
    const keyed = settings(kafka.bootstrap, topic, { partitionBySender: true });
    await publishAll(new KafkaTransport({ settings: keyed }), publish);
    const all = await kafka.waitFor(120);
    const withKey = partitionsBySender(all.filter((record) => record.key !== null));
    expect(withKey).to.deep.equal(withoutKey);
    for (const sender of senders) {
      const texts = payloads(all.filter((record) => record.payload.includes(`"${sender}"`))).map((event) =>
        String(event['text']),
      );
      const order = texts.map((text) => Number(text.split('-')[1]));
      expect(order, sender).to.deep.equal([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
    }
  });

  it("turns a user event's numeric intent id into text with convert_intent_id_to_string, as Rasa does", async () => {
    const topic = uniqueTopic();
    const kafka = await mockKafka(topic);
    const user = {
      event: 'user',
      timestamp: 1,
      text: 'hi',
      parse_data: { intent: { id: 7341, name: 'greet', confidence: 1 } },
    } as unknown as Event;
    const convert = settings(kafka.bootstrap, topic, { convertIntentIdToString: true });
    await publishAll(new KafkaTransport({ settings: convert }), (broker) =>
      broker.publish('lin', [user, bot(1, 1)]),
    );
    const [first, second] = payloads(await kafka.waitFor(2));
    expect(first).to.deep.include({ sender_id: 'lin', event: 'user' });
    expect((first?.['parse_data'] as { intent: unknown }).intent).to.deep.equal({
      id: '7341',
      name: 'greet',
      confidence: 1,
    });
    expect(second).to.deep.equal({ sender_id: 'lin', event: 'bot', timestamp: 1, text: 'c1-1' });
  });

  it("drops an event over Kafka's 1 MB message limit at once, so that it never holds up the events after it", async () => {
    const topic = uniqueTopic();
    const kafka = await mockKafka(topic);
    const broker = new BufferedEventBroker({
      transport: new KafkaTransport({ settings: settings(kafka.bootstrap, topic) }),
    });
    await broker.open();
    const huge = {
      event: 'user',
      timestamp: 2,
      text: 'x'.repeat(KAFKA_MAX_MESSAGE_BYTES),
    } as unknown as Event;
    broker.publish('max', [bot(1, 1), huge, bot(1, 3)]);
    await broker.close();
    expect(broker.dropped).to.equal(1);
    expect(payloads(await kafka.waitFor(2)).map((event) => event['text'])).to.deep.equal(['c1-1', 'c1-3']);
  });

  it('loses nothing and keeps each conversation in order while the broker stops answering', async () => {
    const topic = uniqueTopic();
    const kafka = await mockKafka(topic);
    const logger = recordingLogger();
    const transport = new KafkaTransport({
      settings: settings(kafka.bootstrap, topic),
      logger,
      connectTimeoutMs: 1000,
      ackTimeoutMs: 1000,
    });
    const broker = new BufferedEventBroker({ transport, logger, batchSize: 20, maxRetryDelayMs: 200 });
    await broker.open();
    const perPhase = 150;
    const publishSome = interleavedPublisher(broker, 3);
    await publishSome(perPhase);
    kafka.pause();
    await publishSome(perPhase);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(broker.backlog).to.be.greaterThan(0);
    const resumed = performance.now();
    kafka.resume();
    await publishSome(perPhase);
    while (broker.backlog > 0 && performance.now() - resumed < 15_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const recoveryMs = performance.now() - resumed;
    await broker.close();
    const total = perPhase * 3;
    const received = payloads(await kafka.waitFor(total));
    const seen = perConversation(received);
    const unique = [...seen.values()].reduce((sum, list) => sum + list.length, 0);
    expect(unique, 'events lost').to.equal(total);
    for (const [sender, texts] of seen) {
      const numbers = numbersOf(texts);
      expect(numbers, `order of ${sender}`).to.deep.equal([...numbers].sort((a, b) => a - b));
    }
    expect(broker.dropped).to.equal(0);
    expect(logger.messages).to.include('event broker reachable again: publishing the buffered events');
    console.log(
      `      broker silent: 0 of ${total} events lost, ${received.length - unique} redelivered, in order; backlog empty ${Math.round(recoveryMs)} ms after it answered again`,
    );
  });
});

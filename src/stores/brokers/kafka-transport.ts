/**
 * Kafka through kafkajs, as Rasa's KafkaEventBroker publishes: each event's JSON is one message on the
 * topic, keyed by the sender id with `partition_by_sender` and without a key otherwise. Unlike Rasa,
 * a conversation's events always go to one partition (the one its sender id hashes to, as Kafka's
 * own partitioner would place that key), so a consumer reads every conversation in order either way.
 *
 * `send` resolves once every message of the batch is acknowledged by all in-sync replicas (acks=all);
 * one request is in flight at a time, so a retried batch never overtakes the one after it. The
 * client's own retries are off: the buffer (buffered-event-broker.ts) retries with its back-off and
 * keeps what waits. A failed send drops the producer; the next `send` connects again.
 */
import { readFileSync } from 'node:fs';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import type { ICustomPartitioner, KafkaConfig, Message, Producer, SASLOptions } from 'kafkajs';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import type { BrokerMessage, BrokerTransport } from './buffered-event-broker.js';
import type { KafkaSettings } from './kafka-config.js';

export interface KafkaTransportOptions {
  readonly settings: KafkaSettings;
  readonly logger?: StoreLogger;
  /** how long opening a connection to a broker may take (default 5 s) */
  readonly connectTimeoutMs?: number;
  /** how long the brokers may take to acknowledge a batch (default 10 s) */
  readonly ackTimeoutMs?: number;
}

/**
 * Kafka refuses a record over the broker's message.max.bytes (1 MiB by default) and the producer's
 * max.request.size (1 MiB): an event's JSON over this stays out of the buffer (dropped and counted)
 */
export const KAFKA_MAX_MESSAGE_BYTES = 1_000_000;

export class KafkaTransport implements BrokerTransport {
  readonly maxMessageBytes = KAFKA_MAX_MESSAGE_BYTES;
  private readonly settings: KafkaSettings;
  private readonly logger: StoreLogger;
  private readonly connectTimeoutMs: number;
  private readonly ackTimeoutMs: number;
  /** the sender of each message in flight, for the partitioner of messages without a key */
  private readonly senders = new WeakMap<Message, string>();
  private producer: Producer | undefined;
  private connecting: Promise<Producer> | undefined;
  private closed = false;

  constructor(options: KafkaTransportOptions) {
    this.settings = options.settings;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
  }

  describe(): string {
    const { brokers, topic, protocol } = this.settings;
    return `Kafka at ${brokers.join(',')} (topic ${topic}, ${protocol})`;
  }

  async connect(): Promise<void> {
    await this.connection();
  }

  async send(batch: readonly BrokerMessage[]): Promise<void> {
    const producer = await this.connection();
    const messages = batch.map((message) => this.message(message));
    try {
      await producer.send({ topic: this.settings.topic, acks: -1, timeout: this.ackTimeoutMs, messages });
    } catch (error) {
      // a broker gone, a leader moved, an acknowledgement that never came: start afresh next time
      this.forget(producer);
      throw error;
    }
  }

  async disconnect(): Promise<void> {
    this.closed = true;
    const producer = this.producer;
    this.producer = undefined;
    if (producer) await producer.disconnect().catch(() => undefined);
  }

  private message({ senderId, body }: BrokerMessage): Message {
    const value = this.settings.convertIntentIdToString ? intentIdAsString(body) : body;
    const message: Message = this.settings.partitionBySender ? { key: senderId, value } : { value };
    this.senders.set(message, senderId);
    return message;
  }

  private connection(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Producer> {
    if (this.closed) throw new Error('the event broker is closed');
    const producer = new Kafka(this.clientConfig()).producer({
      createPartitioner: this.partitioner(),
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      retry: { retries: 0 },
    });
    try {
      await producer.connect();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await producer.disconnect().catch(() => undefined);
      throw new Error('the event broker is closed');
    }
    this.producer = producer;
    return producer;
  }

  /** Kafka's own partitioner, fed the sender id for messages that carry no key */
  private partitioner(): ICustomPartitioner {
    return () => {
      const byKey = Partitioners.DefaultPartitioner();
      return (args) => {
        if (args.message.key !== undefined && args.message.key !== null) return byKey(args);
        const key = this.senders.get(args.message) ?? null;
        return byKey({ ...args, message: { ...args.message, key } });
      };
    };
  }

  private forget(producer: Producer): void {
    if (this.producer === producer) this.producer = undefined;
    void producer.disconnect().catch((error: unknown) => {
      this.logger.warn({ broker: this.describe(), error: String(error) }, 'Kafka producer did not close');
    });
  }

  private clientConfig(): KafkaConfig {
    const { brokers, clientId, sasl, tls } = this.settings;
    return {
      clientId,
      brokers: [...brokers],
      connectionTimeout: this.connectTimeoutMs,
      requestTimeout: this.ackTimeoutMs,
      retry: { retries: 0 },
      // failures reach the buffer, which logs them once per outage; kafkajs would log each attempt
      logLevel: logLevel.NOTHING,
      ...(sasl ? { sasl: sasl as SASLOptions } : {}),
      ...(tls
        ? {
            ssl: {
              ...(tls.caFile ? { ca: [readFileSync(tls.caFile)] } : {}),
              ...(tls.certFile ? { cert: readFileSync(tls.certFile) } : {}),
              ...(tls.keyFile ? { key: readFileSync(tls.keyFile) } : {}),
              ...(tls.checkHostname ? {} : { checkServerIdentity: () => undefined }),
            },
          }
        : {}),
    };
  }
}

/** Rasa's `convert_intent_id_to_string`: a user event's intent id, a number, as text */
function intentIdAsString(body: string): string {
  const event = JSON.parse(body) as { event?: unknown; parse_data?: { intent?: { id?: unknown } } };
  const intent = event.event === 'user' ? event.parse_data?.intent : undefined;
  if (!intent || intent.id === undefined || intent.id === null) return body;
  intent.id = String(intent.id);
  return JSON.stringify(event);
}

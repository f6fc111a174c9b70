/**
 * RabbitMQ through amqplib, as Rasa's PikaEventBroker sets it up: a fanout exchange (`rasa-exchange`)
 * and each configured queue declared durable and bound to it, messages persistent JSON published to
 * the exchange. A ConfirmChannel makes `send` resolve only once the broker has taken every message
 * (for persistent messages on durable queues RabbitMQ confirms once they are written), so a batch in
 * flight when the connection dies is retried, never assumed. A lost connection is forgotten at once;
 * the next `send` connects again. Rasa declares its exchange non-durable (aio-pika's default): when an
 * exchange of that name already exists with other settings we publish to it as it is, with a warning,
 * instead of failing.
 */
import { readFileSync } from 'node:fs';
import amqp from 'amqplib';
import type { ChannelModel, ConfirmChannel, Options } from 'amqplib';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import type { BrokerMessage, BrokerTransport } from './buffered-event-broker.js';
import type { PikaSettings } from './pika-config.js';

export interface PikaTransportOptions {
  readonly settings: PikaSettings;
  readonly logger?: StoreLogger;
  /** how long opening a connection may take (default 5 s) */
  readonly connectTimeoutMs?: number;
  /** how long the broker may take to confirm a batch before the connection is given up (default 10 s) */
  readonly confirmTimeoutMs?: number;
  /** AMQP heartbeat, seconds (default 10): a silent broker is noticed within about twice this */
  readonly heartbeatSeconds?: number;
}

/** RabbitMQ's channel error for a declaration that contradicts an existing exchange or queue */
const PRECONDITION_FAILED = 406;

interface Connected {
  readonly model: ChannelModel;
  readonly channel: ConfirmChannel;
}

export class PikaTransport implements BrokerTransport {
  private readonly settings: PikaSettings;
  private readonly logger: StoreLogger;
  private readonly connectTimeoutMs: number;
  private readonly confirmTimeoutMs: number;
  private readonly heartbeat: number;
  private current: Connected | undefined;
  private connecting: Promise<Connected> | undefined;
  private closed = false;

  constructor(options: PikaTransportOptions) {
    this.settings = options.settings;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.confirmTimeoutMs = options.confirmTimeoutMs ?? 10_000;
    this.heartbeat = options.heartbeatSeconds ?? 10;
  }

  describe(): string {
    const { protocol, hostname, port, vhost, exchange, queues } = this.settings;
    const where = `${protocol}://${hostname}:${port}${vhost === '/' ? '' : `/${vhost}`}`;
    return `RabbitMQ at ${where} (exchange ${exchange}, queues ${queues.join(', ')})`;
  }

  async connect(): Promise<void> {
    await this.connection();
  }

  async send(batch: readonly BrokerMessage[]): Promise<void> {
    const { channel, model } = await this.connection();
    const { exchange, appId } = this.settings;
    for (const message of batch)
      channel.publish(exchange, '', Buffer.from(message.body, 'utf8'), {
        persistent: true,
        contentType: 'application/json',
        ...(appId ? { appId } : {}),
      });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`RabbitMQ confirmed nothing for ${this.confirmTimeoutMs} ms`)),
        this.confirmTimeoutMs,
      );
    });
    try {
      await Promise.race([channel.waitForConfirms(), timeout]);
    } catch (error) {
      // a nack, a closed channel or a broker gone silent: this connection is done with
      this.forget(model);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection; one still opening is closed as soon as it opens (nothing waits for it). */
  async disconnect(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    if (current) this.forget(current.model);
    await Promise.resolve();
  }

  private connection(): Promise<Connected> {
    if (this.current) return Promise.resolve(this.current);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Connected> {
    if (this.closed) throw new Error('the event broker is closed');
    const model = await amqp.connect(this.connectOptions(), this.socketOptions());
    if (this.closed) {
      this.forget(model);
      throw new Error('the event broker is closed');
    }
    model.on('error', (error: Error) =>
      this.logger.warn({ broker: this.describe(), error: error.message }, 'RabbitMQ connection error'),
    );
    model.on('close', () => {
      if (this.current?.model === model) this.current = undefined;
    });
    try {
      const channel = await this.declare(model);
      if (this.closed) throw new Error('the event broker is closed');
      this.current = { model, channel };
      return this.current;
    } catch (error) {
      this.forget(model);
      throw error;
    }
  }

  /** The exchange, the queues and their bindings, as Rasa declares them; returns the channel to publish on. */
  private async declare(model: ChannelModel): Promise<ConfirmChannel> {
    const { exchange, queues } = this.settings;
    let channel = await this.confirmChannel(model);
    try {
      await channel.assertExchange(exchange, 'fanout', { durable: true });
    } catch (error) {
      if ((error as { code?: number }).code !== PRECONDITION_FAILED) throw error;
      // the failed declaration closed the channel; the exchange exists (made by Rasa, non-durable)
      channel = await this.confirmChannel(model);
      await channel.checkExchange(exchange);
      this.logger.warn(
        { broker: this.describe(), exchange },
        'RabbitMQ exchange exists with other settings than Parley declares (durable fanout): publishing to it as it is',
      );
    }
    for (const queue of queues) {
      await channel.assertQueue(queue, { durable: true });
      await channel.bindQueue(queue, exchange, '');
    }
    return channel;
  }

  private async confirmChannel(model: ChannelModel): Promise<ConfirmChannel> {
    const channel = await model.createConfirmChannel();
    // a channel error (e.g. the 406 above) is also thrown to the call that caused it
    channel.on('error', () => undefined);
    return channel;
  }

  /** Closes a connection without waiting on a broker that may not answer; the socket goes regardless. */
  private forget(model: ChannelModel): void {
    if (this.current?.model === model) this.current = undefined;
    const socket = (model.connection as unknown as { stream?: { destroy(): void } }).stream;
    const closing = model.close().catch(() => undefined);
    const timer = setTimeout(() => socket?.destroy(), 1000);
    void closing.finally(() => clearTimeout(timer));
  }

  private connectOptions(): Options.Connect {
    const { protocol, hostname, port, username, password, vhost, tls } = this.settings;
    const secure = protocol === 'amqps' || tls.certFile !== undefined;
    return {
      protocol: secure ? 'amqps' : 'amqp',
      hostname,
      port,
      username,
      password,
      vhost,
      heartbeat: this.heartbeat,
    };
  }

  private socketOptions(): Record<string, unknown> {
    const { tls } = this.settings;
    return {
      timeout: this.connectTimeoutMs,
      clientProperties: { connection_name: 'parley event broker' },
      ...(tls.caFile ? { ca: [readFileSync(tls.caFile)] } : {}),
      ...(tls.certFile ? { cert: readFileSync(tls.certFile) } : {}),
      ...(tls.keyFile ? { key: readFileSync(tls.keyFile) } : {}),
    };
  }
}

/**
 * The event broker of endpoints.yml's `event_broker` block (after `${VAR}` interpolation), with Rasa's
 * keys: `type: pika` (RabbitMQ; also when `type` is absent, as in Rasa), `type: sql`, `type: kafka`.
 * Any other type, or a block that cannot be used, is STORE_CONFIG_INVALID listing every problem.
 *
 * Two settings of Parley's own, from the environment: PARLEY_EVENT_BROKER_BUFFER (the most events kept
 * waiting while the broker is away, default 10,000) and PARLEY_EVENT_BROKER_CLOSE_TIMEOUT (seconds a
 * shutdown keeps publishing what waits, default 5).
 */
import type { EventBrokerObserver } from '../../core/ports.js';
import { ConfigReader } from '../config-reader.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import { SQL_KEYS, readSqlTarget } from '../sql/sql-target.js';
import { BufferedEventBroker, DEFAULT_MAX_BUFFERED } from './buffered-event-broker.js';
import { KAFKA_KEYS, readKafkaSettings } from './kafka-config.js';
import { KafkaTransport } from './kafka-transport.js';
import { PIKA_KEYS, readPikaSettings } from './pika-config.js';
import { PikaTransport } from './pika-transport.js';
import { SqlBrokerTransport } from './sql-transport.js';

export interface EventBrokerFactoryOptions {
  /** the endpoints.yml block; undefined or null when absent */
  readonly config: unknown;
  readonly projectRoot: string;
  readonly logger?: StoreLogger;
  readonly observer?: EventBrokerObserver;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The broker, or undefined when there is none to run (no block, or an empty one). */
export function createEventBroker(options: EventBrokerFactoryOptions): BufferedEventBroker | undefined {
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const env = options.env ?? process.env;
  if (options.config === undefined || options.config === null) return undefined;
  const reader = readerOf(options.config);
  const type = (reader.string('type') ?? 'pika').trim().toLowerCase();
  const buffer = bufferSettings(reader, env);
  const common = { logger, ...(options.observer ? { observer: options.observer } : {}), ...buffer };
  if (type === 'pika') {
    const settings = readPikaSettings(reader, { projectRoot: options.projectRoot, env });
    reader.throwIfInvalid();
    warnUnknownKeys(reader, PIKA_KEYS, logger);
    if (!settings) throw new Error('unreachable: pika settings without a problem');
    return new BufferedEventBroker({
      ...common,
      transport: new PikaTransport({ settings, logger }),
      raiseOnFailure: settings.raiseOnFailure,
      connectionAttempts: settings.connectionAttempts,
      maxRetryDelayMs: settings.retryDelayMs,
    });
  }
  if (type === 'sql') {
    const target = readSqlTarget(reader, {
      projectRoot: options.projectRoot,
      env,
      defaultSqliteFile: 'events.db',
    });
    reader.throwIfInvalid();
    warnUnknownKeys(reader, SQL_KEYS, logger);
    if (!target) throw new Error('unreachable: a SQL target without a problem');
    return new BufferedEventBroker({ ...common, transport: new SqlBrokerTransport({ target, logger }) });
  }
  if (type === 'kafka') {
    const settings = readKafkaSettings(reader, { projectRoot: options.projectRoot });
    reader.throwIfInvalid();
    warnUnknownKeys(reader, KAFKA_KEYS, logger);
    if (!settings) throw new Error('unreachable: kafka settings without a problem');
    return new BufferedEventBroker({ ...common, transport: new KafkaTransport({ settings, logger }) });
  }
  const why = type.includes('.')
    ? 'custom broker classes are Python module paths, which Parley cannot load'
    : 'Parley does not implement it';
  reader.problem(`event_broker.type '${type}' is not supported (${why}); use pika (RabbitMQ), kafka or sql`);
  reader.throwIfInvalid();
  throw new Error('unreachable: an event broker type without a problem');
}

function readerOf(config: unknown): ConfigReader {
  if (typeof config === 'object' && config !== null && !Array.isArray(config))
    return new ConfigReader({ section: 'event_broker', raw: config as Record<string, unknown> });
  const reader = new ConfigReader({ section: 'event_broker', raw: {} });
  reader.problem('event_broker must be a map of settings');
  reader.throwIfInvalid();
  return reader;
}

function bufferSettings(
  reader: ConfigReader,
  env: Readonly<Record<string, string | undefined>>,
): { maxBuffered: number; closeTimeoutMs?: number } {
  const size = env['PARLEY_EVENT_BROKER_BUFFER'];
  const seconds = env['PARLEY_EVENT_BROKER_CLOSE_TIMEOUT'];
  let maxBuffered = DEFAULT_MAX_BUFFERED;
  if (size !== undefined && size !== '') {
    const parsed = Number(size);
    if (Number.isInteger(parsed) && parsed > 0) maxBuffered = parsed;
    else
      reader.problem(
        `environment variable PARLEY_EVENT_BROKER_BUFFER must be a positive whole number, not '${size}'`,
      );
  }
  if (seconds === undefined || seconds === '') return { maxBuffered };
  const parsed = Number(seconds);
  if (Number.isFinite(parsed) && parsed >= 0) return { maxBuffered, closeTimeoutMs: parsed * 1000 };
  reader.problem(
    `environment variable PARLEY_EVENT_BROKER_CLOSE_TIMEOUT must be a number of seconds, not '${seconds}'`,
  );
  return { maxBuffered };
}

function warnUnknownKeys(reader: ConfigReader, known: readonly string[], logger: StoreLogger): void {
  const unknown = reader.unknownKeys(known);
  if (unknown.length > 0)
    logger.warn(
      { section: 'event_broker', keys: unknown },
      'event_broker: ignoring settings Parley does not use',
    );
}

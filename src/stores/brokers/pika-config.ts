/**
 * The settings of `event_broker: {type: pika}` with Rasa's keys: `url` (or `host`: a host name, or an
 * `amqp://` / `amqps://` URL whose path is the virtual host), `port` (5672; 5671 for amqps),
 * `username`, `password`, `queues` (a list, or one name; default `rasa_core_events`), `queue` (Rasa's
 * older single-queue key), `exchange_name` (default `rasa-exchange`), `raise_on_failure`,
 * `connection_attempts`, `retry_delay_in_seconds`. TLS as Rasa does it: an `amqps` URL, a client
 * certificate from RABBITMQ_SSL_CLIENT_CERTIFICATE and RABBITMQ_SSL_CLIENT_KEY, a CA from the URL's
 * `cacertfile` query parameter.
 */
import { resolve } from 'node:path';
import type { ConfigReader } from '../config-reader.js';

export const DEFAULT_QUEUE = 'rasa_core_events';
export const DEFAULT_EXCHANGE = 'rasa-exchange';

export const PIKA_KEYS = [
  'type',
  'url',
  'host',
  'port',
  'username',
  'password',
  'queues',
  'queue',
  'exchange_name',
  'raise_on_failure',
  'connection_attempts',
  'retry_delay_in_seconds',
  // Rasa reads it and so do we: unpublished events are always kept (in a bounded buffer)
  'should_keep_unpublished_messages',
];

export interface PikaTls {
  /** files, absolute */
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
}

export interface PikaSettings {
  readonly protocol: 'amqp' | 'amqps';
  readonly hostname: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly vhost: string;
  readonly queues: readonly string[];
  readonly exchange: string;
  readonly raiseOnFailure: boolean;
  readonly connectionAttempts: number;
  readonly retryDelayMs: number;
  readonly tls: PikaTls;
  /** RASA_ENVIRONMENT: the messages' app_id, as Rasa sets it */
  readonly appId?: string;
}

/** The settings, or undefined when the reader collected problems (all of them, for one error). */
export function readPikaSettings(
  reader: ConfigReader,
  options: { projectRoot: string; env: Readonly<Record<string, string | undefined>> },
): PikaSettings | undefined {
  const given = reader.string('url') ?? reader.string('host');
  if (given === undefined)
    reader.problem(`${reader.section}.url (the RabbitMQ host, or an amqp:// URL) is required`);
  const address = given === undefined ? undefined : parseAddress(reader, given);
  const port = reader.integer('port', { min: 1, max: 65535 });
  const queues = readQueues(reader);
  const exchange = reader.string('exchange_name') ?? DEFAULT_EXCHANGE;
  const raiseOnFailure = reader.boolean('raise_on_failure') ?? false;
  reader.boolean('should_keep_unpublished_messages');
  const connectionAttempts = reader.integer('connection_attempts', { min: 1, max: 1000 }) ?? 20;
  const retryDelay = reader.seconds('retry_delay_in_seconds') ?? 5;
  const tls = readTls(reader, address, options);
  if (!address || reader.problems.length > 0) return undefined;
  const username = reader.string('username') ?? address.username ?? 'guest';
  const password = reader.string('password') ?? address.password ?? 'guest';
  const appId = options.env['RASA_ENVIRONMENT'];
  return {
    protocol: address.protocol,
    hostname: address.hostname,
    port: port ?? address.port ?? (address.protocol === 'amqps' ? 5671 : 5672),
    username,
    password,
    vhost: address.vhost,
    queues,
    exchange,
    raiseOnFailure,
    connectionAttempts,
    retryDelayMs: retryDelay * 1000,
    tls,
    ...(appId ? { appId } : {}),
  };
}

interface Address {
  readonly protocol: 'amqp' | 'amqps';
  readonly hostname: string;
  readonly port?: number;
  readonly vhost: string;
  readonly username?: string;
  readonly password?: string;
  readonly caFile?: string;
}

function parseAddress(reader: ConfigReader, given: string): Address | undefined {
  const text = given.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `amqp://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    reader.problem(`${reader.section}.url '${text}' is not a host name or an amqp:// URL`);
    return undefined;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'amqp' && scheme !== 'amqps') {
    reader.problem(
      `${reader.section}.url must be a host name or an amqp:// or amqps:// URL, not ${scheme}://`,
    );
    return undefined;
  }
  if (url.hostname === '') {
    reader.problem(`${reader.section}.url '${text}' names no host`);
    return undefined;
  }
  const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const caFile = url.searchParams.get('cacertfile') ?? undefined;
  return {
    protocol: scheme,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    ...(url.port ? { port: Number(url.port) } : {}),
    vhost: path === '' ? '/' : path,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(caFile ? { caFile } : {}),
  };
}

function readQueues(reader: ConfigReader): string[] {
  const raw = reader.has('queues') ? reader.value('queues') : reader.value('queue');
  if (raw === undefined || raw === null) return [DEFAULT_QUEUE];
  const list = Array.isArray(raw) ? raw : [raw];
  const names = list.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
  if (names.length !== list.length || names.length === 0) {
    reader.problem(`${reader.section}.queues must be a list of queue names`);
    return [];
  }
  return [...new Set(names)];
}

function readTls(
  reader: ConfigReader,
  address: Address | undefined,
  options: { projectRoot: string; env: Readonly<Record<string, string | undefined>> },
): PikaTls {
  const file = (path: string | undefined) => (path ? resolve(options.projectRoot, path) : undefined);
  const cert = file(options.env['RABBITMQ_SSL_CLIENT_CERTIFICATE']);
  const key = file(options.env['RABBITMQ_SSL_CLIENT_KEY']);
  if ((cert === undefined) !== (key === undefined))
    reader.problem(
      'RABBITMQ_SSL_CLIENT_CERTIFICATE and RABBITMQ_SSL_CLIENT_KEY must be set together (a client certificate and its key)',
    );
  const ca = file(address?.caFile);
  return { ...(ca ? { caFile: ca } : {}), ...(cert && key ? { certFile: cert, keyFile: key } : {}) };
}

/**
 * The settings of `event_broker: {type: kafka}` with Rasa's keys: `url` (one `host:port`, a
 * comma-separated list, or a YAML list: the bootstrap servers), `topic` (default `rasa_core_events`),
 * `client_id`, `partition_by_sender`, `security_protocol` (PLAINTEXT, SASL_PLAINTEXT, SSL, SASL_SSL;
 * Rasa's default is SASL_PLAINTEXT), `sasl_username`, `sasl_password`, `sasl_mechanism` (PLAIN,
 * SCRAM-SHA-256, SCRAM-SHA-512), `ssl_cafile`, `ssl_certfile`, `ssl_keyfile`, `ssl_check_hostname`,
 * `convert_intent_id_to_string`. GSSAPI and OAUTHBEARER, which Rasa passes to its client, are refused
 * with the reason: the client here has neither.
 */
import { resolve } from 'node:path';
import type { ConfigReader } from '../config-reader.js';

export const DEFAULT_TOPIC = 'rasa_core_events';

export const KAFKA_KEYS = [
  'type',
  'url',
  'topic',
  'client_id',
  'partition_by_sender',
  'security_protocol',
  'sasl_username',
  'sasl_password',
  'sasl_mechanism',
  'ssl_cafile',
  'ssl_certfile',
  'ssl_keyfile',
  'ssl_check_hostname',
  'convert_intent_id_to_string',
  // Rasa's logging level of its Kafka client; Parley's own logs say what matters
  'loglevel',
];

const PROTOCOLS = ['PLAINTEXT', 'SASL_PLAINTEXT', 'SSL', 'SASL_SSL'] as const;
export type KafkaSecurityProtocol = (typeof PROTOCOLS)[number];

const MECHANISMS = {
  PLAIN: 'plain',
  'SCRAM-SHA-256': 'scram-sha-256',
  'SCRAM-SHA-512': 'scram-sha-512',
} as const;
export type KafkaSaslMechanism = (typeof MECHANISMS)[keyof typeof MECHANISMS];

export interface KafkaSasl {
  readonly mechanism: KafkaSaslMechanism;
  readonly username: string;
  readonly password: string;
}

export interface KafkaTls {
  /** files, absolute */
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** whether the broker's certificate must name the host connected to */
  readonly checkHostname: boolean;
}

export interface KafkaSettings {
  /** `host:port` each */
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly clientId: string;
  readonly partitionBySender: boolean;
  readonly protocol: KafkaSecurityProtocol;
  readonly sasl?: KafkaSasl;
  /** present for SSL and SASL_SSL */
  readonly tls?: KafkaTls;
  readonly convertIntentIdToString: boolean;
}

/** The settings, or undefined when the reader collected problems (all of them, for one error). */
export function readKafkaSettings(
  reader: ConfigReader,
  options: { projectRoot: string },
): KafkaSettings | undefined {
  const brokers = readBrokers(reader);
  const topic = reader.string('topic') ?? DEFAULT_TOPIC;
  const clientId = reader.string('client_id') ?? 'parley';
  const partitionBySender = reader.boolean('partition_by_sender') ?? false;
  const convertIntentIdToString = reader.boolean('convert_intent_id_to_string') ?? false;
  reader.value('loglevel');
  const protocol = readProtocol(reader);
  const sasl = protocol?.startsWith('SASL_') ? readSasl(reader, protocol) : undefined;
  const tls = protocol?.endsWith('SSL') ? readTls(reader, protocol, options.projectRoot) : undefined;
  if (!protocol || reader.problems.length > 0) return undefined;
  return {
    brokers,
    topic,
    clientId,
    partitionBySender,
    protocol,
    ...(sasl ? { sasl } : {}),
    ...(tls ? { tls } : {}),
    convertIntentIdToString,
  };
}

function readBrokers(reader: ConfigReader): string[] {
  const raw = reader.value('url');
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  const brokers = list.map((item) => (typeof item === 'string' ? item.trim() : '')).filter(Boolean);
  if (raw === undefined || raw === null || brokers.length === 0) {
    reader.problem(`${reader.section}.url (the Kafka bootstrap servers, host:port) is required`);
    return [];
  }
  for (const broker of brokers)
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(broker))
      reader.problem(`${reader.section}.url '${broker}' is not host:port (Kafka has no default port here)`);
  return brokers;
}

function readProtocol(reader: ConfigReader): KafkaSecurityProtocol | undefined {
  const given = (reader.string('security_protocol') ?? 'SASL_PLAINTEXT').trim().toUpperCase();
  if ((PROTOCOLS as readonly string[]).includes(given)) return given as KafkaSecurityProtocol;
  reader.problem(
    `${reader.section}.security_protocol must be one of ${PROTOCOLS.join(', ')}, not '${given}'`,
  );
  return undefined;
}

function readSasl(reader: ConfigReader, protocol: KafkaSecurityProtocol): KafkaSasl | undefined {
  const username = reader.string('sasl_username');
  const password = reader.string('sasl_password');
  const given = (reader.string('sasl_mechanism') ?? 'PLAIN').trim().toUpperCase();
  const mechanism = MECHANISMS[given as keyof typeof MECHANISMS] as KafkaSaslMechanism | undefined;
  if (!mechanism)
    reader.problem(
      `${reader.section}.sasl_mechanism '${given}' is not supported (the Kafka client here has ${Object.keys(MECHANISMS).join(', ')})`,
    );
  if (username === undefined || password === undefined) {
    const defaulted = reader.has('security_protocol') ? '' : " (Rasa's default)";
    reader.problem(
      `${reader.section}.security_protocol ${protocol}${defaulted} needs sasl_username and sasl_password; a broker without authentication takes security_protocol: ${protocol === 'SASL_SSL' ? 'SSL' : 'PLAINTEXT'}`,
    );
  }
  return mechanism && username !== undefined && password !== undefined
    ? { mechanism, username, password }
    : undefined;
}

function readTls(reader: ConfigReader, protocol: KafkaSecurityProtocol, projectRoot: string): KafkaTls {
  const file = (key: string) => {
    const path = reader.string(key);
    return path ? resolve(projectRoot, path) : undefined;
  };
  const caFile = file('ssl_cafile');
  const certFile = file('ssl_certfile');
  const keyFile = file('ssl_keyfile');
  if ((certFile === undefined) !== (keyFile === undefined))
    reader.problem(`${reader.section}.ssl_certfile and ssl_keyfile must be set together`);
  // Rasa checks the host name only with SASL_SSL, and only when asked
  const checkHostname = protocol === 'SASL_SSL' && (reader.boolean('ssl_check_hostname') ?? false);
  if (protocol === 'SSL') reader.boolean('ssl_check_hostname');
  return {
    ...(caFile ? { caFile } : {}),
    ...(certFile ? { certFile } : {}),
    ...(keyFile ? { keyFile } : {}),
    checkHostname,
  };
}

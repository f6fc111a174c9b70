import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppError } from '../../../src/core/errors.js';
import { createEventBroker } from '../../../src/stores/brokers/broker-factory.js';
import { ConfigReader } from '../../../src/stores/config-reader.js';
import { readKafkaSettings } from '../../../src/stores/brokers/kafka-config.js';
import { readPikaSettings } from '../../../src/stores/brokers/pika-config.js';
import { validateProject } from '../../../src/project/validate/index.js';
import { writeInlineProject } from '../../support/inline-project.js';
import { recordingLogger } from '../../support/recording-logger.js';

const root = mkdtempSync(join(tmpdir(), 'parley-broker-config-'));
after(() => rmSync(root, { recursive: true, force: true }));

function problemsOf(config: unknown, env: Record<string, string> = {}): string[] {
  try {
    createEventBroker({ config, projectRoot: root, env });
  } catch (error) {
    expect((error as AppError).code).to.equal('STORE_CONFIG_INVALID');
    return ((error as AppError).details as { problems: string[] }).problems;
  }
  throw new Error('expected STORE_CONFIG_INVALID');
}

function pika(config: Record<string, unknown>, env: Record<string, string> = {}) {
  const reader = new ConfigReader({ section: 'event_broker', raw: { type: 'pika', ...config } });
  const settings = readPikaSettings(reader, { projectRoot: root, env });
  expect(reader.problems).to.deep.equal([]);
  return settings;
}

describe('event_broker configuration', () => {
  it('lists every problem of a pika block at once: missing url, bad port, bad queues, bad flags', () => {
    const problems = problemsOf({
      type: 'pika',
      port: 'seventy',
      queues: [1, 'ok'],
      raise_on_failure: 'sometimes',
      retry_delay_in_seconds: -1,
      connection_attempts: 0,
    });
    expect(problems).to.have.length(6);
    expect(problems.join('\n'))
      .to.contain('event_broker.url')
      .and.contain('event_broker.port')
      .and.contain('event_broker.queues')
      .and.contain('event_broker.raise_on_failure')
      .and.contain('event_broker.retry_delay_in_seconds')
      .and.contain('event_broker.connection_attempts');
  });

  it('refuses a port out of range and a URL of another scheme', () => {
    expect(problemsOf({ type: 'pika', url: 'localhost', port: 70000 })).to.deep.equal([
      'event_broker.port must be a whole number from 1 to 65535',
    ]);
    expect(problemsOf({ type: 'pika', url: 'http://rabbit:5672' })[0]).to.contain('amqp://');
  });

  it('refuses an unknown type, naming the supported ones, and a custom Python class', () => {
    const [unknown] = problemsOf({ type: 'redis', url: 'localhost' });
    expect(unknown).to.contain("'redis' is not supported").and.contain('pika').and.contain('sql');
    expect(problemsOf({ type: 'my_module.MyBroker' })[0]).to.contain('Python');
    expect(problemsOf('pika')[0]).to.contain('must be a map');
  });

  it('lists bad buffer settings of the environment with the block’s own problems', () => {
    const problems = problemsOf({ type: 'sql', dialect: 'oracle' }, { PARLEY_EVENT_BROKER_BUFFER: 'lots' });
    expect(problems).to.have.length(2);
    expect(problems.join('\n')).to.contain('PARLEY_EVENT_BROKER_BUFFER').and.contain("dialect 'oracle'");
  });

  it("reads Rasa's pika keys with Rasa's defaults (queue rasa_core_events, exchange rasa-exchange)", () => {
    expect(pika({ url: 'rabbit.internal' })).to.deep.include({
      protocol: 'amqp',
      hostname: 'rabbit.internal',
      port: 5672,
      username: 'guest',
      vhost: '/',
      queues: ['rasa_core_events'],
      exchange: 'rasa-exchange',
      raiseOnFailure: false,
      connectionAttempts: 20,
      retryDelayMs: 5000,
    });
    expect(
      pika({
        url: 'amqps://rabbit.internal/prod?cacertfile=certs/ca.pem',
        port: '5999',
        username: 'bot',
        password: 1234,
        queue: 'old_style',
        exchange_name: 'events',
        raise_on_failure: 'true',
        retry_delay_in_seconds: 0.5,
      }),
    ).to.deep.include({
      protocol: 'amqps',
      port: 5999,
      username: 'bot',
      password: '1234',
      vhost: 'prod',
      queues: ['old_style'],
      exchange: 'events',
      raiseOnFailure: true,
      retryDelayMs: 500,
      tls: { caFile: join(root, 'certs/ca.pem') },
    });
    const tls = pika(
      { host: 'rabbit', queues: 'single' },
      {
        RABBITMQ_SSL_CLIENT_CERTIFICATE: 'c.pem',
        RABBITMQ_SSL_CLIENT_KEY: '/k.pem',
        RASA_ENVIRONMENT: 'prod',
      },
    );
    expect(tls).to.deep.include({
      queues: ['single'],
      tls: { certFile: join(root, 'c.pem'), keyFile: '/k.pem' },
      appId: 'prod',
    });
  });

  it('needs both halves of a client certificate', () => {
    const problems = problemsOf(
      { type: 'pika', url: 'rabbit' },
      { RABBITMQ_SSL_CLIENT_CERTIFICATE: 'c.pem' },
    );
    expect(problems[0]).to.contain('RABBITMQ_SSL_CLIENT_KEY');
  });

  it('takes a block without a type for pika, as Rasa does, and has no broker without a block', async () => {
    const broker = createEventBroker({ config: { url: 'localhost' }, projectRoot: root });
    expect(broker?.describe()).to.match(/^RabbitMQ at amqp:\/\/localhost:5672/);
    await broker?.close();
    expect(createEventBroker({ config: undefined, projectRoot: root })).to.equal(undefined);
    expect(createEventBroker({ config: null, projectRoot: root })).to.equal(undefined);
  });

  it("opens a SQL broker on Rasa's default SQLite file events.db, next to the project", async () => {
    const broker = createEventBroker({ config: { type: 'sql' }, projectRoot: root });
    expect(broker?.describe()).to.equal(`SQL sqlite at ${join(root, 'events.db')} (table events)`);
    await broker?.close();
  });

  it("reads a kafka block with Rasa's keys: bootstrap servers as a list or a comma-separated text", async () => {
    const logger = recordingLogger();
    const broker = createEventBroker({
      config: {
        type: 'kafka',
        url: ['kafka-1:9092', ' kafka-2:9093'],
        topic: 'rasa_events',
        security_protocol: 'plaintext',
        partition_by_sender: 'true',
        loglevel: 'DEBUG',
        batch: 3,
      },
      projectRoot: root,
      logger,
    });
    expect(broker?.describe()).to.equal('Kafka at kafka-1:9092,kafka-2:9093 (topic rasa_events, PLAINTEXT)');
    expect(logger.warningFields[0]).to.deep.include({ section: 'event_broker', keys: ['batch'] });
    await broker?.close();
    const reader = new ConfigReader({
      section: 'event_broker',
      raw: { type: 'kafka', url: 'a:1,b:2', sasl_username: 'u', sasl_password: 'p' },
    });
    expect(readKafkaSettings(reader, { projectRoot: root })).to.deep.equal({
      brokers: ['a:1', 'b:2'],
      topic: 'rasa_core_events',
      clientId: 'parley',
      partitionBySender: false,
      protocol: 'SASL_PLAINTEXT',
      sasl: { mechanism: 'plain', username: 'u', password: 'p' },
      convertIntentIdToString: false,
    });
  });

  it("lists every problem of a kafka block at once, naming Rasa's SASL default when credentials are missing", () => {
    const problems = problemsOf({ type: 'kafka', url: 'kafka', sasl_mechanism: 'GSSAPI' });
    expect(problems).to.have.length(3);
    expect(problems[0]).to.contain("'kafka' is not host:port");
    expect(problems[1]).to.contain("'GSSAPI' is not supported");
    expect(problems[2]).to.contain("SASL_PLAINTEXT (Rasa's default) needs sasl_username and sasl_password");
    expect(problemsOf({ type: 'kafka', security_protocol: 'TLS' })).to.deep.equal([
      'event_broker.url (the Kafka bootstrap servers, host:port) is required',
      "event_broker.security_protocol must be one of PLAINTEXT, SASL_PLAINTEXT, SSL, SASL_SSL, not 'TLS'",
    ]);
    expect(
      problemsOf({ type: 'kafka', url: 'k:9093', security_protocol: 'SSL', ssl_certfile: 'client.pem' }),
    ).to.deep.equal(['event_broker.ssl_certfile and ssl_keyfile must be set together']);
  });

  it('checks the TLS host name only with SASL_SSL and ssl_check_hostname, as Rasa does', () => {
    const tls = (raw: Record<string, unknown>) => {
      const reader = new ConfigReader({ section: 'event_broker', raw: { url: 'k:9093', ...raw } });
      const read = readKafkaSettings(reader, { projectRoot: root });
      expect(reader.problems).to.deep.equal([]);
      return read?.tls;
    };
    const credentials = { sasl_username: 'u', sasl_password: 'p' };
    expect(tls({ security_protocol: 'SSL', ssl_check_hostname: true, ssl_cafile: 'ca.pem' })).to.deep.equal({
      caFile: join(root, 'ca.pem'),
      checkHostname: false,
    });
    expect(tls({ security_protocol: 'SASL_SSL', ssl_check_hostname: true, ...credentials })).to.deep.equal({
      checkHostname: true,
    });
    expect(tls({ security_protocol: 'SASL_PLAINTEXT', ...credentials })).to.equal(undefined);
  });

  it('parley data validate warns at its type that the Kafka broker was tried on a mock cluster only', () => {
    const project = (endpoints: string) =>
      writeInlineProject({
        domain: 'responses:\n  utter_hi:\n    - text: hi\n',
        flows: 'flows:\n  hi:\n    description: says hi\n    steps:\n      - action: utter_hi\n',
        endpoints,
      });
    const codes = (endpoints: string) =>
      validateProject({ project: project(endpoints) }).diagnostics.map((item) => ({
        code: item.code,
        line: item.line,
      }));
    expect(codes('event_broker:\n  url: kafka:9092\n  type: kafka\n')).to.deep.equal([
      { code: 'EVENT_BROKER_KAFKA_UNVERIFIED', line: 3 },
    ]);
    // Rasa's keys, a list of bootstrap servers included, are no schema problem
    const full = [
      'event_broker:',
      '  type: kafka',
      '  url: [kafka-1:9092, kafka-2:9092]',
      '  topic: rasa_events',
      '  partition_by_sender: true',
      '  security_protocol: SASL_SSL',
      '  sasl_mechanism: SCRAM-SHA-512',
      '  sasl_username: parley',
      '  sasl_password: secret',
      '  ssl_cafile: ca.pem',
      '  ssl_check_hostname: true',
      '',
    ].join('\n');
    expect(codes(full)).to.deep.equal([{ code: 'EVENT_BROKER_KAFKA_UNVERIFIED', line: 2 }]);
    expect(codes('event_broker:\n  type: pika\n  url: localhost\n  queues: [a, b]\n')).to.deep.equal([]);
    expect(codes('event_broker:\n  type: sql\n  db: events.db\n')).to.deep.equal([]);
  });
});

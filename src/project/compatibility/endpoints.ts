import type { LoadedProject } from '../load-project.js';
import type { Section } from '../load/read-project.js';
import { positionOf } from '../load/yaml-file.js';
import type { CompatibilityFinding } from './findings.js';

/** What Parley does with each section of Rasa's endpoints.yml. */
export type EndpointSupport = 'supported' | 'replaced' | 'warned';

export interface EndpointSection {
  readonly support: EndpointSupport;
  readonly note: string;
}

/**
 * Rasa's endpoints.yml sections. A `warned` section is read and not acted on: `validate` and the
 * start-up log say so (ENDPOINTS_SECTION_NOT_RUN) instead of ignoring it silently.
 */
export const RASA_ENDPOINT_SECTIONS: Readonly<Record<string, EndpointSection>> = {
  action_endpoint: {
    support: 'supported',
    note: 'action server over HTTP (`url`); `actions_module` (a dotted path, default `actions`) names the folder or module of TypeScript/JavaScript actions run in process (Python files are not run); declared actions nothing provides are warned (CUSTOM_ACTIONS_NOT_IMPLEMENTED)',
  },
  tracker_store: { support: 'supported', note: 'memory, SQL (SQLite by default, PostgreSQL)' },
  lock_store: { support: 'supported', note: 'memory, PostgreSQL advisory locks, Redis' },
  nlg: { support: 'supported', note: 'an NLG server by `url`; `type: rephrase` is read, not run (warning)' },
  model_groups: { support: 'supported', note: 'OpenAI-compatible providers (docs/llm.md)' },
  vector_store: { support: 'replaced', note: 'a local BM25 index of the source folder (docs/knowledge.md)' },
  interaction_handling: { support: 'supported', note: '`global_silence_timeout`, for voice channels' },
  a2a_server: { support: 'supported', note: "Parley's A2A server (docs/a2a.md)" },
  models: { support: 'warned', note: 'models are not pulled from a model server; pass -m or train locally' },
  event_broker: {
    support: 'supported',
    note: 'pika (RabbitMQ, publisher confirms), sql, and kafka (kafkajs; tested on a mock Kafka cluster only: EVENT_BROKER_KAFKA_UNVERIFIED); docs/event-brokers.md',
  },
  nlu: {
    support: 'warned',
    note: "no external NLU server: messages are understood by the assistant's own pipeline",
  },
  tracing: { support: 'warned', note: 'no OpenTelemetry export: structured logs and /metrics instead' },
  metrics: { support: 'warned', note: 'no OTLP metrics: Prometheus /metrics instead' },
  mcp_servers: {
    support: 'supported',
    note: 'tools called by flow steps (`call` with `mcp_server` and `mapping`) over Streamable HTTP; auth by `api_key` or `token` (OAuth not yet); docs/orchestration.md',
  },
};

/**
 * The endpoints.yml sections Rasa acts on and Parley only reads, one finding each, at the section; and
 * a Kafka event broker, which Parley runs without having tried it on Apache Kafka itself.
 */
export function endpointSectionFindings(project: Pick<LoadedProject, 'raw'>): CompatibilityFinding[] {
  const endpoints = project.raw.endpoints;
  if (!endpoints) return [];
  const broker = eventBrokerFinding(endpoints);
  return [...sectionFindings(endpoints), ...(broker ? [broker] : [])];
}

function eventBrokerFinding(endpoints: Section): CompatibilityFinding | undefined {
  const block = endpoints.data['event_broker'];
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return undefined;
  const type = (block as Record<string, unknown>)['type'];
  if (typeof type !== 'string' || type.trim().toLowerCase() !== 'kafka') return undefined;
  return {
    code: 'EVENT_BROKER_KAFKA_UNVERIFIED',
    where: positionOf(endpoints.file, ['event_broker', 'type']),
    subject: 'event_broker',
    message:
      "The Kafka event broker (`event_broker: type: kafka`) publishes with kafkajs and has been tested against a mock Kafka cluster (librdkafka's), not Apache Kafka: try it on your cluster before relying on it.",
  };
}

function sectionFindings(endpoints: Section): CompatibilityFinding[] {
  return Object.entries(endpoints.data).flatMap(([key, value]): CompatibilityFinding[] => {
    const known = RASA_ENDPOINT_SECTIONS[key];
    // an empty section is absent, as Rasa reads it
    if (known?.support !== 'warned' || value === null || value === undefined) return [];
    return [
      {
        code: 'ENDPOINTS_SECTION_NOT_RUN',
        where: positionOf(endpoints.file, [key], true),
        subject: key,
        message: `endpoints.yml section '${key}' is not run by Parley: ${known.note}.`,
      },
    ];
  });
}

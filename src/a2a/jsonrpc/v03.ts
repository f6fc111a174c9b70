/**
 * The v0.3 wire (spec/a2a.md §2.2–2.4): `kind`-tagged objects and lower-case states, close to the
 * semantic model. Blocking unless `configuration.blocking` is false; a `historyLength` of 0 means the
 * whole history, as v0.3's reference server reads it.
 */
import { A2aError, invalidParams } from '../a2a-error.js';
import type { A2aMessage, Part, Task, TaskEvent } from '../tasks/model.js';
import {
  identifier,
  isRecord,
  optionalBoolean,
  optionalCount,
  optionalRecord,
  readUserMessage,
  record,
} from './params.js';
import type { Json } from './params.js';
import { readInlineConfig } from '../push/push-config.js';
import type { WireCodec } from './wire.js';

export const V03_CODEC: WireCodec = {
  version: '0.3',
  sendRequest(params) {
    const body = record(params, 'params');
    const configuration = optionalRecord(body['configuration'], 'configuration') ?? {};
    const historyLength = optionalCount(configuration['historyLength'], 'configuration.historyLength');
    const pushConfig = readInlineConfig(configuration, '0.3');
    return {
      message: readMessage(body['message']),
      blocking: optionalBoolean(configuration['blocking'], 'configuration.blocking') ?? true,
      historyLength: historyLength === 0 ? undefined : historyLength,
      ...(pushConfig ? { pushConfig } : {}),
    };
  },
  taskQuery(params) {
    const body = record(params, 'params');
    const historyLength = optionalCount(body['historyLength'], 'historyLength');
    return {
      id: identifier(body['id'], 'id'),
      historyLength: historyLength === 0 ? undefined : historyLength,
    };
  },
  taskId: (params) => identifier(record(params, 'params')['id'], 'id'),
  sendResult: (task) => taskJson(task),
  task: (task) => taskJson(task),
  event(event: TaskEvent) {
    if (event.kind === 'task') return taskJson(event.task);
    if (event.kind === 'status-update') return { ...event, status: statusJson(event.status) };
    return { ...event, artifact: { ...event.artifact, parts: event.artifact.parts.map(partJson) } };
  },
};

function readMessage(value: unknown): A2aMessage {
  const kind = isRecord(value) ? value['kind'] : undefined;
  if (kind !== undefined && kind !== 'message')
    throw invalidParams("message.kind must be 'message'", 'message.kind');
  return readUserMessage(value, { userRole: 'user', readPart });
}

function readPart(value: unknown, field: string): Part {
  const part = record(value, field);
  const metadata = optionalRecord(part['metadata'], `${field}.metadata`);
  const extra = metadata ? { metadata } : {};
  switch (part['kind']) {
    case 'text':
      if (typeof part['text'] !== 'string') throw invalidParams(`${field}.text must be a string`, field);
      return { kind: 'text', text: part['text'], ...extra };
    case 'data':
      return { kind: 'data', data: record(part['data'], `${field}.data`), ...extra };
    case 'file':
      throw new A2aError({
        reason: 'CONTENT_TYPE_NOT_SUPPORTED',
        message: 'This agent reads text and data parts; file parts are not supported.',
        metadata: { field },
      });
    default:
      throw invalidParams(`${field}.kind must be 'text', 'data' or 'file'`, field);
  }
}

function taskJson(task: Task): Json {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: statusJson(task.status),
    history: task.history.map(messageJson),
    artifacts: task.artifacts.map((artifact) => ({ ...artifact, parts: artifact.parts.map(partJson) })),
    ...(task.metadata ? { metadata: task.metadata } : {}),
  };
}

function statusJson(status: Task['status']): Json {
  return { ...status, ...(status.message ? { message: messageJson(status.message) } : {}) };
}

function messageJson(message: A2aMessage): Json {
  return { kind: 'message', ...message, parts: message.parts.map(partJson) };
}

/** v0.3 data parts hold objects: other JSON values are wrapped */
function partJson(part: Part): Json {
  if (part.kind === 'data' && !isRecord(part.data)) return { ...part, data: { value: part.data } };
  return { ...part };
}

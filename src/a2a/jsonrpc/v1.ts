/**
 * The v1.0 wire (spec/a2a.md §2.2–2.4): ProtoJSON shapes, no `kind` (the member name decides),
 * `TASK_STATE_*` and `ROLE_*` enums, send results wrapped as `{task}`, stream events as
 * `{task}` / `{statusUpdate}` / `{artifactUpdate}`. Blocking unless `returnImmediately`;
 * `historyLength` 0 omits the history.
 */
import { A2aError, invalidParams } from '../a2a-error.js';
import type { A2aMessage, Artifact, Part, Task, TaskEvent, TaskState, TaskStatus } from '../tasks/model.js';
import {
  MAX_CONTEXT_ID_LENGTH,
  identifier,
  optionalBoolean,
  optionalIdentifier,
  optionalCount,
  optionalRecord,
  readUserMessage,
  optionalText,
  record,
} from './params.js';
import type { Json } from './params.js';
import { readInlineConfig } from '../push/push-config.js';
import type { ListRequest, WireCodec } from './wire.js';

const STATES: Record<TaskState, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
};

export const V1_CODEC: WireCodec = {
  version: '1.0',
  sendRequest(params) {
    const body = record(params, 'params');
    const configuration = optionalRecord(body['configuration'], 'configuration') ?? {};
    const immediately = optionalBoolean(
      configuration['returnImmediately'],
      'configuration.returnImmediately',
    );
    const pushConfig = readInlineConfig(configuration, '1.0');
    return {
      message: readMessage(body['message']),
      blocking: immediately !== true,
      historyLength: optionalCount(configuration['historyLength'], 'configuration.historyLength'),
      ...(pushConfig ? { pushConfig } : {}),
    };
  },
  taskQuery(params) {
    const body = record(params, 'params');
    return {
      id: identifier(body['id'], 'id'),
      historyLength: optionalCount(body['historyLength'], 'historyLength'),
    };
  },
  taskId: (params) => identifier(record(params, 'params')['id'], 'id'),
  sendResult: (task) => ({ task: taskJson(task) }),
  task: (task) => taskJson(task),
  event(event: TaskEvent) {
    if (event.kind === 'task') return { task: taskJson(event.task) };
    if (event.kind === 'status-update')
      return {
        statusUpdate: { taskId: event.taskId, contextId: event.contextId, status: statusJson(event.status) },
      };
    return {
      artifactUpdate: {
        taskId: event.taskId,
        contextId: event.contextId,
        artifact: artifactJson(event.artifact),
        append: event.append,
        lastChunk: event.lastChunk,
      },
    };
  },
};

/** ListTasks params (spec/a2a.md §2.4): pageSize 1..100 (default 50), status as a TASK_STATE_* name. */
export function listRequest(params: unknown): ListRequest {
  const body = record(params ?? {}, 'params');
  const pageSize = optionalCount(body['pageSize'], 'pageSize') ?? 50;
  if (pageSize < 1 || pageSize > 100) throw invalidParams('pageSize must be between 1 and 100', 'pageSize');
  const status = optionalText(body['status'], 'status');
  const state = status === undefined || status === 'TASK_STATE_UNSPECIFIED' ? undefined : stateOf(status);
  const after = optionalText(body['statusTimestampAfter'], 'statusTimestampAfter');
  const statusAfter = after === undefined ? undefined : Date.parse(after);
  if (statusAfter !== undefined && Number.isNaN(statusAfter))
    throw invalidParams('statusTimestampAfter must be an ISO 8601 time', 'statusTimestampAfter');
  const contextId = optionalIdentifier(body['contextId'], 'contextId', MAX_CONTEXT_ID_LENGTH);
  const pageToken = optionalIdentifier(body['pageToken'], 'pageToken');
  const historyLength = optionalCount(body['historyLength'], 'historyLength');
  return {
    pageSize,
    includeArtifacts: optionalBoolean(body['includeArtifacts'], 'includeArtifacts') ?? false,
    ...(contextId !== undefined ? { contextId } : {}),
    ...(state !== undefined ? { state } : {}),
    ...(pageToken !== undefined ? { pageToken } : {}),
    ...(historyLength !== undefined ? { historyLength } : {}),
    ...(statusAfter !== undefined ? { statusAfter } : {}),
  };
}

function stateOf(name: string): TaskState {
  const found = (Object.keys(STATES) as TaskState[]).find((state) => STATES[state] === name);
  if (!found) throw invalidParams(`status must be a TASK_STATE_* name, not ${name}`, 'status');
  return found;
}

function readMessage(value: unknown): A2aMessage {
  return readUserMessage(value, { userRole: 'ROLE_USER', readPart });
}

function readPart(value: unknown, field: string): Part {
  const part = record(value, field);
  const metadata = optionalRecord(part['metadata'], `${field}.metadata`);
  const extra = metadata && Object.keys(metadata).length > 0 ? { metadata } : {};
  if (typeof part['text'] === 'string') return { kind: 'text', text: part['text'], ...extra };
  if ('data' in part && part['data'] !== undefined) return { kind: 'data', data: part['data'], ...extra };
  if ('url' in part || 'raw' in part)
    throw new A2aError({
      reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      message: 'This agent reads text and data parts; file parts are not supported.',
      metadata: { field },
    });
  throw invalidParams(`${field} must have text, data, url or raw`, field);
}

function taskJson(task: Task): Json {
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusJson(task.status),
    artifacts: task.artifacts.map(artifactJson),
    history: task.history.map(messageJson),
    ...(task.metadata ? { metadata: task.metadata } : {}),
  };
}

function statusJson(status: TaskStatus): Json {
  return {
    state: STATES[status.state],
    ...(status.message ? { message: messageJson(status.message) } : {}),
    timestamp: status.timestamp,
  };
}

function messageJson(message: A2aMessage): Json {
  return {
    messageId: message.messageId,
    role: message.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: message.parts.map(partJson),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.referenceTaskIds ? { referenceTaskIds: message.referenceTaskIds } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
  };
}

function artifactJson(artifact: Artifact): Json {
  return { ...artifact, parts: artifact.parts.map(partJson) };
}

function partJson(part: Part): Json {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  switch (part.kind) {
    case 'text':
      return { text: part.text, mediaType: 'text/plain', ...metadata };
    case 'data':
      return { data: part.data, mediaType: 'application/json', ...metadata };
    case 'file':
      return {
        ...(part.file.uri ? { url: part.file.uri } : { raw: part.file.bytes ?? '' }),
        ...(part.file.mimeType ? { mediaType: part.file.mimeType } : {}),
        ...(part.file.name ? { filename: part.file.name } : {}),
        ...metadata,
      };
  }
}

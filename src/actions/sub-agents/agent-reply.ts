/**
 * What a sub-agent answered, from a blocking reply (a Task or a Message) or folded from a stream of
 * events, and what that means for the conversation (Rasa's table): input-required (or a bare Message)
 * keeps the agent in charge, completed ends the call, failed/canceled/rejected/auth-required fail it;
 * submitted and working are not answers yet.
 */
import { TaskState } from '@a2a-js/sdk';
import type { Artifact, Message, Part, StreamResponse, Task } from '@a2a-js/sdk';
import type { AgentOutcome } from '../../core/agents/outcome.js';

export interface AgentReply {
  /** 'message': the agent answered with a Message, not a Task */
  readonly state: TaskState | 'message';
  readonly contextId?: string;
  readonly taskId?: string;
  readonly statusParts: readonly Part[];
  readonly artifacts: readonly Artifact[];
}

export function replyOfResult(result: Task | Message): AgentReply {
  if ('status' in result || 'artifacts' in result) return replyOfTask(result as Task);
  const message = result as Message;
  return {
    state: 'message',
    ...ids(message.contextId, message.taskId),
    statusParts: message.parts,
    artifacts: [],
  };
}

export function replyOfTask(task: Task): AgentReply {
  return {
    state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
    ...ids(task.contextId, task.id),
    statusParts: task.status?.message?.parts ?? [],
    artifacts: task.artifacts ?? [],
  };
}

/** Folds one stream event into the reply so far. */
export function foldStreamEvent(
  reply: AgentReply | undefined,
  event: StreamResponse,
): AgentReply | undefined {
  const payload = event.payload;
  if (!payload) return reply;
  switch (payload.$case) {
    case 'task':
      return replyOfTask(payload.value);
    case 'message':
      return replyOfResult(payload.value);
    case 'statusUpdate': {
      const status = payload.value.status;
      const base = reply ?? { state: TaskState.TASK_STATE_UNSPECIFIED, statusParts: [], artifacts: [] };
      return {
        ...base,
        ...ids(payload.value.contextId, payload.value.taskId),
        state: status?.state ?? base.state,
        statusParts: status?.message?.parts ?? base.statusParts,
      };
    }
    case 'artifactUpdate': {
      const artifact = payload.value.artifact;
      const base = reply ?? { state: TaskState.TASK_STATE_WORKING, statusParts: [], artifacts: [] };
      return artifact ? { ...base, artifacts: [...base.artifacts, artifact] } : base;
    }
    default:
      return reply;
  }
}

/** An answer the call can act on; submitted, working and unknown mean waiting (polling). */
export function isSettled(reply: AgentReply): boolean {
  return !WAITING.has(reply.state);
}

const WAITING: ReadonlySet<AgentReply['state']> = new Set([
  TaskState.TASK_STATE_UNSPECIFIED,
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

export function outcomeOf(
  reply: AgentReply,
  resultSlots: (data: readonly unknown[]) => { name: string; value: unknown }[],
): AgentOutcome {
  switch (reply.state) {
    case 'message':
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return {
        kind: 'input_required',
        text: textOf(reply.statusParts),
        ...ids(reply.contextId, reply.taskId),
      };
    case TaskState.TASK_STATE_COMPLETED: {
      const parts = [...reply.statusParts, ...reply.artifacts.flatMap((artifact) => artifact.parts)];
      return { kind: 'completed', text: textOf(parts), slots: resultSlots(dataOf(parts)) };
    }
    default:
      return { kind: 'failed', reason: `Task state: ${stateName(reply.state)}` };
  }
}

/** the text of the parts, once each (an agent may repeat its status text in an artifact) */
function textOf(parts: readonly Part[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    const content = part.content;
    const text =
      content?.$case === 'text'
        ? content.value
        : content?.$case === 'url'
          ? `File: ${content.value}`
          : undefined;
    if (text !== undefined && text.trim() !== '' && !texts.includes(text.trim())) texts.push(text.trim());
  }
  return texts.join('\n');
}

function dataOf(parts: readonly Part[]): unknown[] {
  return parts.flatMap((part) => (part.content?.$case === 'data' ? [part.content.value as unknown] : []));
}

function ids(
  contextId: string | undefined,
  taskId: string | undefined,
): { contextId?: string; taskId?: string } {
  const result: { contextId?: string; taskId?: string } = {};
  if (contextId) result.contextId = contextId;
  if (taskId) result.taskId = taskId;
  return result;
}

function stateName(state: AgentReply['state']): string {
  if (state === 'message') return 'message';
  return (TaskState[state] ?? String(state)).replace('TASK_STATE_', '').toLowerCase().replace(/_/g, '-');
}

/**
 * The runtime side of a sub-agent call (the agent frame on top of the stack predicts it while the agent
 * has not answered the latest user message): the user's latest text goes to the agent, in the agent's
 * context and task once it has them, with the assistant's filled slots as a data part (Rasa's
 * `{"slots": [{name, value}]}`), and the answer becomes events (the core's
 * agentOutcomeEvents). A failure of any kind ends the call into pattern_internal_error; it never fails
 * the turn. Rasa sends the transcript as the text of the first message; Parley sends the user's message
 * (so that agents understanding one message at a time, Parley's own NLU and intent payloads among them,
 * can answer it) and the transcript as `metadata.conversation_history`.
 */
import { AGENT_CALL_ACTION } from '../../core/agents/sub-agent.js';
import type { SubAgentConfig } from '../../core/agents/sub-agent.js';
import { agentOutcomeEvents } from '../../core/agents/outcome.js';
import type { AgentOutcome } from '../../core/agents/outcome.js';
import { eventEffect } from '../../core/built-ins/types.js';
import type { ActionEffect, RuntimeBuiltInAction } from '../../core/built-ins/types.js';
import { ENGINE_SLOTS } from '../../core/domain/built-in-slots.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { ActionRequest } from '../../core/ports.js';
import type { AgentFrame } from '../../core/stack/frames.js';
import { isAgentFrame } from '../../core/stack/frames.js';
import type { AgentCaller, AgentMessage } from './agent-client.js';
import { outcomeOf } from './agent-reply.js';
import { resultSlotValues } from './result-slots.js';

export interface AgentCallOptions {
  readonly agents: ReadonlyMap<string, SubAgentConfig>;
  readonly caller: AgentCaller;
  /** hears why a call failed (the runtime's log) */
  readonly onFailure?: (agent: string, reason: string) => void;
}

/** Rasa sends the last 20 turns of the conversation on first contact */
const TRANSCRIPT_MESSAGES = 40;

export function agentCallBuiltIns(options: AgentCallOptions): Map<string, RuntimeBuiltInAction> {
  return new Map([[AGENT_CALL_ACTION, (request: ActionRequest) => callAgent(request, options)]]);
}

async function callAgent(request: ActionRequest, options: AgentCallOptions): Promise<ActionEffect[]> {
  const frame = request.state.stack.at(-1);
  if (!isAgentFrame(frame)) return [];
  const outcome = await outcomeFor(frame, request, options);
  if (outcome.kind === 'failed') options.onFailure?.(frame.agent_id, outcome.reason);
  return agentOutcomeEvents(request.state, request.engine, outcome).map((event) => eventEffect(event));
}

async function outcomeFor(
  frame: AgentFrame,
  request: ActionRequest,
  options: AgentCallOptions,
): Promise<AgentOutcome> {
  const agent = options.agents.get(frame.agent_id);
  if (!agent) return { kind: 'failed', reason: `no sub-agent '${frame.agent_id}' is configured` };
  try {
    const reply = await options.caller.send(agent, messageFor(frame, request.state));
    const known = agent.resultSlots.filter((name) => request.engine.domain.slots.has(name));
    return outcomeOf(reply, (data) => resultSlotValues(data, known));
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

function messageFor(frame: AgentFrame, state: TrackerState): AgentMessage {
  const { context_id: contextId, task_id: taskId } = frame.metadata;
  const message: { -readonly [K in keyof AgentMessage]: AgentMessage[K] } = {
    text: state.latestMessage?.text ?? '',
    slots: filledSlots(state),
  };
  if (contextId) message.contextId = contextId;
  else message.metadata = { conversation_history: transcript(state) };
  if (taskId) message.taskId = taskId;
  return message;
}

function transcript(state: TrackerState): string {
  return state.recentMessages
    .slice(-TRANSCRIPT_MESSAGES)
    .filter((message) => message.text)
    .map((message) => `${message.event === 'user' ? 'USER' : 'AI'}: ${message.text ?? ''}`)
    .join('\n');
}

function filledSlots(state: TrackerState): { name: string; value: unknown }[] {
  return Object.entries(state.slots)
    .filter(([name, value]) => value !== null && value !== undefined && !ENGINE_SLOTS.has(name))
    .map(([name, value]) => ({ name, value }));
}

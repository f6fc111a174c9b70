/** Runs one action through the real action runner on a conversation given as events (no Agent, no store). */
import { DefaultActionRunner } from '../../../src/actions/action-runner.js';
import { StubActionSource } from '../../../src/actions/custom/stub-source.js';
import type { ActionStub } from '../../../src/actions/custom/stub-source.js';
import type { Assistant } from '../../../src/core/assistant.js';
import { createTrackerState } from '../../../src/core/events/tracker-state.js';
import { foldEvents } from '../../../src/core/events/fold-events.js';
import type { Event, UnstampedEvent, UserUttered } from '../../../src/core/events/types.js';
import type { ActionOutcome } from '../../../src/core/ports.js';
import { DEFAULT_ENGINE_OPTIONS } from '../../../src/core/engine-context.js';
import { applyStackUpdate, stackUpdateEvent } from '../../../src/core/events/stack-update.js';
import type { Frame, UserFrameType } from '../../../src/core/stack/frames.js';

export const T0 = 1_700_000_000;

export interface RunOptions {
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly stubs?: Readonly<Record<string, ActionStub>>;
}

/** The events the action produced; fails the test when the action failed. */
export async function runAction(
  assistant: Assistant,
  name: string,
  history: readonly Event[],
  options: RunOptions = {},
): Promise<readonly UnstampedEvent[]> {
  const outcome = await runOutcome(assistant, name, history, options);
  if (!outcome.ok) throw new Error(`${name} failed: ${outcome.code} ${outcome.message}`);
  return outcome.events;
}

export async function runOutcome(
  assistant: Assistant,
  name: string,
  history: readonly Event[],
  options: RunOptions = {},
): Promise<ActionOutcome> {
  const stubs = new Map(Object.entries(options.stubs ?? {}));
  const runner = new DefaultActionRunner({
    assistant,
    customActions: [new StubActionSource({ stubs, clock: () => T0 })],
    random: () => 0,
  });
  // the runtime logs the action's own `action` event before running it
  const events = [...history, { event: 'action', timestamp: T0, name } as Event];
  const initialSlots = Object.fromEntries(
    [...assistant.domain.slots.values()].map((slot) => [slot.name, slot.initialValue ?? null]),
  );
  const state = foldEvents(createTrackerState({ senderId: 'u', initialSlots }), events);
  let frames = 0;
  return runner.run({
    actionName: name,
    conversationId: 'u',
    state,
    allEvents: async () => events,
    engine: {
      flows: assistant.flows,
      domain: assistant.domain,
      now: T0,
      newFrameId: () => `N${(frames += 1)}`,
      options: DEFAULT_ENGINE_OPTIONS,
    },
    ...(options.metadata ? { metadata: options.metadata } : {}),
  });
}

export function userWithIntent(
  intent: string,
  confidence = 0.9,
  ranking: readonly { name: string; confidence: number }[] = [],
): UserUttered {
  return {
    event: 'user',
    timestamp: T0,
    text: `/${intent}`,
    parse_data: {
      text: `/${intent}`,
      intent: { name: intent, confidence },
      entities: [],
      ...(ranking.length > 0 ? { intent_ranking: ranking } : {}),
    },
    input_channel: 'rest',
    message_id: `m-${intent}`,
  };
}

export function executed(name: string): Event {
  return { event: 'action', timestamp: T0, name, policy: null, confidence: 1 };
}

export function reverted(): Event {
  return { event: 'rewind', timestamp: T0 };
}

export function activeLoop(name: string | null): Event {
  return { event: 'active_loop', timestamp: T0, name };
}

/** `event`s as short strings: `bot:<text>`, `action:<name>`, `user:<intent>@<confidence>`, `active_loop:<name>`, ... */
export function summary(events: readonly UnstampedEvent[]): string[] {
  return events.map((event) => {
    switch (event.event) {
      case 'bot':
        return `bot:${event.text ?? ''}`;
      case 'action':
        return `action:${event.name}`;
      case 'user':
        return `user:${event.parse_data.intent.name ?? ''}@${event.parse_data.intent.confidence}`;
      case 'active_loop':
        return `active_loop:${event.name ?? 'null'}`;
      case 'slot':
        return `slot:${event.name}=${JSON.stringify(event.value)}`;
      default:
        return event.event;
    }
  });
}

/** `stack` events that take an empty stack through each of the given stacks in turn. */
export function withStacks(...stacks: readonly (readonly Frame[])[]): Event[] {
  let before: readonly Frame[] = [];
  return stacks.flatMap((stack) => {
    const event = stackUpdateEvent(before, stack, T0);
    before = stack;
    return event ? [event] : [];
  });
}

/** The stack after the action's `stack` event (the stack before when it has none). */
export function stackAfter(before: readonly Frame[], events: readonly UnstampedEvent[]): readonly Frame[] {
  const update = events.find((event) => event.event === 'stack');
  if (update?.event !== 'stack') return before;
  const result = applyStackUpdate(before, update.update);
  if (!result.ok) throw new Error(result.error);
  return result.stack;
}

/** The stack as `"<frame_id>:<flow_id>@<step_id>"`, bottom first. */
export function frameSteps(stack: readonly Frame[]): string[] {
  return stack.map((frame) => `${frame.frame_id}:${frame.flow_id}@${frame.step_id}`);
}

export function flowFrame(
  frameId: string,
  flowId: string,
  stepId: string,
  frameType: UserFrameType = 'regular',
): Frame {
  return { frame_id: frameId, flow_id: flowId, step_id: stepId, frame_type: frameType, type: 'flow' };
}

export function patternOf(
  frameId: string,
  patternId: `pattern_${string}`,
  context: Readonly<Record<string, unknown>> = {},
  stepId = 'START',
): Frame {
  return { frame_id: frameId, flow_id: patternId, step_id: stepId, type: patternId, ...context };
}

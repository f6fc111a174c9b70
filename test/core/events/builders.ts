import type { Frame, PatternFrame, Stack, UserFlowFrame } from '../../../src/core/stack/frames.js';
import type {
  ActionExecuted,
  BotUttered,
  DialogueStackUpdated,
  Event,
  SlotSet,
  UserUttered,
} from '../../../src/core/events/index.js';
import { createTrackerState, stackUpdateEvent } from '../../../src/core/events/index.js';

export const T0 = 1_700_000_000;

export function user(text: string, options: { timestamp?: number; channel?: string } = {}): UserUttered {
  return {
    event: 'user',
    timestamp: options.timestamp ?? T0,
    text,
    parse_data: { text, intent: { name: null, confidence: 0 }, entities: [] },
    input_channel: options.channel ?? 'rest',
    message_id: `m-${text}`,
  };
}

export function bot(text: string, timestamp = T0): BotUttered {
  return { event: 'bot', timestamp, text, data: {} };
}

export function action(name: string, timestamp = T0): ActionExecuted {
  return { event: 'action', timestamp, name, policy: null, confidence: 1 };
}

export function slot(name: string, value: unknown, filledBy?: string): SlotSet {
  const metadata = filledBy === undefined ? {} : { metadata: { filled_by: filledBy } };
  return { event: 'slot', timestamp: T0, name, value, ...metadata };
}

export function simple<E extends Event['event']>(event: E, timestamp = T0): Event {
  return { event, timestamp } as Event;
}

export function flowFrame(frameId: string, flowId: string, stepId: string): UserFlowFrame {
  return { frame_id: frameId, flow_id: flowId, step_id: stepId, frame_type: 'regular', type: 'flow' };
}

export function collectFrame(frameId: string, slotName: string): PatternFrame {
  return {
    frame_id: frameId,
    flow_id: 'pattern_collect_information',
    step_id: 'start',
    collect: slotName,
    utter: `utter_ask_${slotName}`,
    collect_action: `action_ask_${slotName}`,
    rejections: [],
    type: 'pattern_collect_information',
  };
}

export function stackEvent(before: Stack, after: Stack, timestamp = T0): DialogueStackUpdated {
  const event = stackUpdateEvent(before, after, timestamp);
  if (event === undefined) throw new Error('the stacks are equal');
  return event;
}

export function freshState(initialSlots: Record<string, unknown> = { amount: null, recipient: null }) {
  return createTrackerState({ senderId: 'alice', initialSlots });
}

/** A small deterministic PRNG (mulberry32) so property tests replay exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export type { Frame };

/**
 * Typed trace events: what a turn did and why, for the inspector, tests and tools ("why did the bot say
 * that?"). They are built only when a TraceSink listens; a turn without a sink builds none.
 */
import type { Command } from '../commands/types.js';
import type { Event, EntityValue } from '../events/types.js';
import type { SlotValues } from '../events/tracker-state.js';
import type { Stack } from '../stack/frames.js';

/** Where a turn's commands came from. */
export type CommandSource =
  /** commands handed in with the message (a command oracle, tests, the HTTP API's trigger_intent) */
  | { readonly kind: 'given' }
  /** a direct payload: `/SetSlots(...)` or `/intent{...}` (buttons send these) */
  | { readonly kind: 'payload'; readonly payload: 'set_slots' | 'intent'; readonly intent?: string }
  /** the trained NLU pipeline's intent and entities */
  | {
      readonly kind: 'nlu';
      readonly intent: string | null;
      readonly confidence: number;
      readonly entities: readonly EntityValue[];
    }
  /** an LLM command generator's answer (the text it parsed), or why there was none */
  | { readonly kind: 'llm'; readonly output: string }
  | { readonly kind: 'llm_error'; readonly error: string }
  /** a coexistence router's decision, with the NLU classification it routed on */
  | {
      readonly kind: 'router';
      readonly route: 'calm' | 'nlu';
      readonly intent: string | null;
      readonly confidence: number;
    }
  /** nothing understood the text (payload-only understanding, an empty or too long message) */
  | { readonly kind: 'fallback'; readonly reason: string }
  /** read back from the stored `user` event: the commands, intent and entities only */
  | {
      readonly kind: 'stored';
      readonly intent: string | null;
      readonly confidence: number;
      readonly entities: readonly EntityValue[];
    };

/** What cleaning the turn's commands (Rasa's clean_up_commands) did with one command. */
export interface CommandCleanup {
  readonly command: Command;
  readonly outcome: 'dropped' | 'replaced' | 'corrected';
  readonly reason: string;
  /** what took its place (`replaced`) */
  readonly replacement?: Command;
}

export interface FlowPosition {
  readonly flowId: string;
  readonly stepId: string;
}

export type TraceEvent =
  | {
      readonly type: 'turn_started';
      readonly conversationId: string;
      readonly text: string;
      /** events the conversation held when the turn began */
      readonly eventCount: number;
    }
  | {
      readonly type: 'commands_understood';
      readonly conversationId: string;
      readonly source: CommandSource;
      readonly commands: readonly Command[];
    }
  | {
      readonly type: 'commands_received';
      readonly conversationId: string;
      /** index of the user event that stores them */
      readonly userEventIndex: number;
      /** the commands stored with the user message, as understanding left them */
      readonly commands: readonly Command[];
      readonly given: boolean;
    }
  | {
      readonly type: 'commands_cleaned';
      readonly conversationId: string;
      readonly changes: readonly CommandCleanup[];
      /** the commands that were applied, in the order cleaning left them */
      readonly applied: readonly Command[];
    }
  | {
      readonly type: 'stack_changed';
      readonly conversationId: string;
      /** index of the `stack` event in the conversation */
      readonly eventIndex: number;
      readonly before: Stack;
      readonly after: Stack;
    }
  | {
      readonly type: 'step_visited';
      readonly conversationId: string;
      readonly eventIndex: number;
      readonly flowId: string;
      readonly stepId: string;
    }
  | {
      readonly type: 'action_run';
      readonly conversationId: string;
      readonly eventIndex: number;
      readonly action: string;
      /** the events that followed the action's own event, up to the next action or user message */
      readonly events: readonly Event[];
    }
  | {
      readonly type: 'slot_changed';
      readonly conversationId: string;
      readonly eventIndex: number;
      readonly name: string;
      readonly previous: unknown;
      readonly value: unknown;
    }
  | {
      readonly type: 'turn_ended';
      readonly conversationId: string;
      readonly eventCount: number;
      /** the top flow frame's flow and step once the turn listens; undefined with no flow active */
      readonly position: FlowPosition | undefined;
      readonly stack: Stack;
      readonly slots: SlotValues;
    };

export type TraceEventType = TraceEvent['type'];

/**
 * Rasa's tracker events, in the JSON form Rasa serialises them (`event` is the discriminator). Keeping
 * the wire form in memory makes the tracker store, the HTTP API and the action server protocol
 * straight copies of the event log.
 */

export interface EventBase {
  /** seconds since the epoch, as a float (Rasa's convention) */
  readonly timestamp: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface IntentPrediction {
  readonly name: string | null;
  readonly confidence: number;
}

export interface EntityValue {
  readonly entity: string;
  readonly value: unknown;
  readonly start?: number;
  readonly end?: number;
  readonly confidence?: number;
  readonly extractor?: string;
  readonly role?: string;
  readonly group?: string;
}

/** A command as stored in `parse_data.commands`: `{command: "set slot", name, value, ...}`. */
export type SerializedCommand = Readonly<Record<string, unknown>> & { readonly command: string };

export interface ParseData {
  readonly text?: string | null;
  readonly intent: IntentPrediction;
  readonly entities: readonly EntityValue[];
  readonly intent_ranking?: readonly IntentPrediction[];
  readonly message_id?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly commands?: readonly SerializedCommand[];
  readonly [key: string]: unknown;
}

export interface UserUttered extends EventBase {
  readonly event: 'user';
  readonly text: string | null;
  readonly parse_data: ParseData;
  readonly input_channel?: string | null;
  readonly message_id?: string | null;
}

export interface BotData {
  readonly elements?: unknown;
  readonly quick_replies?: unknown;
  readonly buttons?: readonly { readonly title: string; readonly payload: string }[] | null;
  readonly attachment?: unknown;
  readonly image?: string | null;
  readonly custom?: unknown;
}

export interface BotUttered extends EventBase {
  readonly event: 'bot';
  readonly text: string | null;
  readonly data: BotData;
}

export interface ActionExecuted extends EventBase {
  readonly event: 'action';
  readonly name: string;
  readonly policy?: string | null;
  readonly confidence?: number | null;
  readonly action_text?: string | null;
  readonly hide_rule_turn?: boolean;
}

export interface SlotSet extends EventBase {
  readonly event: 'slot';
  readonly name: string;
  readonly value: unknown;
}

export interface DialogueStackUpdated extends EventBase {
  readonly event: 'stack';
  /** an RFC 6902 JSON Patch against the previous stack, serialised as a string */
  readonly update: string;
}

export interface FlowStarted extends EventBase {
  readonly event: 'flow_started';
  readonly flow_id: string;
}

export interface FlowStepEvent<E extends string> extends EventBase {
  readonly event: E;
  readonly flow_id: string;
  readonly step_id: string;
}

export type FlowInterrupted = FlowStepEvent<'flow_interrupted'>;
export type FlowResumed = FlowStepEvent<'flow_resumed'>;
export type FlowCompleted = FlowStepEvent<'flow_completed'>;
export type FlowCancelled = FlowStepEvent<'flow_cancelled'>;

export interface SimpleEvent<E extends string> extends EventBase {
  readonly event: E;
}

export type SessionStarted = SimpleEvent<'session_started'>;
export type Restarted = SimpleEvent<'restart'>;
export type AllSlotsReset = SimpleEvent<'reset_slots'>;
export type UserUtteranceReverted = SimpleEvent<'rewind'>;
export type ActionReverted = SimpleEvent<'undo'>;
export type ConversationPaused = SimpleEvent<'pause'>;
export type ConversationResumed = SimpleEvent<'resume'>;
export type SessionEnded = SimpleEvent<'session_ended'>;
/** Rasa's RoutingSessionEnded (coexistence): the routing session is over, its state is reset. */
export type RoutingSessionEnded = SimpleEvent<'routing_session_ended'>;

export interface FollowupAction extends EventBase {
  readonly event: 'followup';
  readonly name: string;
}

export interface ActionExecutionRejected extends EventBase {
  readonly event: 'action_execution_rejected';
  readonly name: string;
  readonly policy?: string | null;
  readonly confidence?: number | null;
}

export interface ReminderScheduled extends EventBase {
  readonly event: 'reminder';
  readonly intent: string;
  readonly entities?: unknown;
  readonly date_time: string;
  readonly name?: string | null;
  readonly kill_on_user_message?: boolean;
}

export interface ReminderCancelled extends EventBase {
  readonly event: 'cancel_reminder';
  readonly name?: string | null;
  readonly intent?: string | null;
  readonly entities?: unknown;
}

export interface EntitiesAdded extends EventBase {
  readonly event: 'entities';
  readonly entities: readonly EntityValue[];
}

export interface ActiveLoop extends EventBase {
  readonly event: 'active_loop';
  readonly name: string | null;
}

export interface LoopInterrupted extends EventBase {
  readonly event: 'loop_interrupted';
  readonly is_interrupted: boolean;
}

export interface StoryExported extends EventBase {
  readonly event: 'export';
  readonly path?: string | null;
}

export type Event =
  | UserUttered
  | BotUttered
  | ActionExecuted
  | SlotSet
  | DialogueStackUpdated
  | FlowStarted
  | FlowInterrupted
  | FlowResumed
  | FlowCompleted
  | FlowCancelled
  | SessionStarted
  | Restarted
  | AllSlotsReset
  | UserUtteranceReverted
  | ActionReverted
  | ConversationPaused
  | ConversationResumed
  | SessionEnded
  | RoutingSessionEnded
  | FollowupAction
  | ActionExecutionRejected
  | ReminderScheduled
  | ReminderCancelled
  | EntitiesAdded
  | ActiveLoop
  | LoopInterrupted
  | StoryExported;

export type EventType = Event['event'];

/** An event before it is stamped: the core produces these; the runtime adds the clock's timestamp. */
export type UnstampedEvent = Event extends infer E
  ? E extends Event
    ? Omit<E, 'timestamp'> & { timestamp?: number }
    : never
  : never;

/**
 * The fields each event type must or may carry, as `parseEvent` checks them. The table is keyed by
 * every `EventType`, so a new event type does not compile until its fields are listed here.
 */
import type { EventType } from './types.js';

export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'any';

export interface FieldRule {
  readonly type: FieldType;
  /** `null` is a valid value */
  readonly nullable?: boolean;
  /** a missing (or, unless nullable, null) field is an error */
  readonly required?: boolean;
  /** the value used when the field is missing (or null and not nullable) */
  readonly fallback?: unknown;
}

export type FieldRules = Readonly<Record<string, FieldRule>>;

const REQUIRED_STRING: FieldRule = { type: 'string', required: true };
const OPTIONAL_STRING: FieldRule = { type: 'string', nullable: true };
const TEXT: FieldRule = { type: 'string', nullable: true, fallback: null };
const OPTIONAL_NUMBER: FieldRule = { type: 'number', nullable: true };
const OPTIONAL_BOOLEAN: FieldRule = { type: 'boolean' };
const ANYTHING: FieldRule = { type: 'any' };
const FLOW_STEP: FieldRules = { flow_id: REQUIRED_STRING, step_id: REQUIRED_STRING };
const NONE: FieldRules = {};

export const EVENT_FIELDS: { readonly [E in EventType]: FieldRules } = {
  user: { text: TEXT, parse_data: ANYTHING, input_channel: OPTIONAL_STRING, message_id: OPTIONAL_STRING },
  bot: { text: TEXT, data: { type: 'object', fallback: {} } },
  action: {
    name: REQUIRED_STRING,
    policy: OPTIONAL_STRING,
    confidence: OPTIONAL_NUMBER,
    action_text: OPTIONAL_STRING,
    hide_rule_turn: OPTIONAL_BOOLEAN,
  },
  slot: { name: REQUIRED_STRING, value: { type: 'any', nullable: true, fallback: null } },
  stack: { update: REQUIRED_STRING },
  flow_started: { flow_id: REQUIRED_STRING },
  flow_interrupted: FLOW_STEP,
  flow_resumed: FLOW_STEP,
  flow_completed: FLOW_STEP,
  flow_cancelled: FLOW_STEP,
  session_started: NONE,
  restart: NONE,
  reset_slots: NONE,
  rewind: NONE,
  undo: NONE,
  pause: NONE,
  resume: NONE,
  session_ended: NONE,
  routing_session_ended: NONE,
  followup: { name: REQUIRED_STRING },
  action_execution_rejected: { name: REQUIRED_STRING, policy: OPTIONAL_STRING, confidence: OPTIONAL_NUMBER },
  reminder: {
    intent: REQUIRED_STRING,
    date_time: REQUIRED_STRING,
    name: OPTIONAL_STRING,
    kill_on_user_message: OPTIONAL_BOOLEAN,
    entities: ANYTHING,
  },
  cancel_reminder: { name: OPTIONAL_STRING, intent: OPTIONAL_STRING, entities: ANYTHING },
  entities: { entities: { type: 'array', required: true } },
  active_loop: { name: TEXT },
  loop_interrupted: { is_interrupted: { type: 'boolean', fallback: false } },
  export: { path: OPTIONAL_STRING },
};

import type { BotUttered } from '../events/types.js';
import type { BuiltInAction, BuiltInInput } from './types.js';
import { eventEffect, optionalUtterEffect, utterEffect } from './types.js';

/** action_listen and other markers: the runtime records the action; there is nothing else to do. */
export const noEffects: BuiltInAction = () => [];

/** action_restart: utter_restart when the assistant has it, then forget the conversation (`restart`). */
export const actionRestart: BuiltInAction = () => [
  optionalUtterEffect('utter_restart'),
  eventEffect({ event: 'restart' }),
];

/** action_hangup: ends the session (voice channels hang up on it). */
export const actionHangup: BuiltInAction = () => [eventEffect({ event: 'session_ended' })];

/**
 * action_trigger_search without Enterprise Search: Parley has no knowledge base yet, so it says so with
 * the default `utter_no_knowledge_base` response instead of failing.
 */
export const actionTriggerSearch: BuiltInAction = () => [utterEffect('utter_no_knowledge_base')];

/** action_trigger_chitchat without an IntentlessPolicy (which Parley does not have): cannot handle. */
export const actionTriggerChitchat: BuiltInAction = () => [utterEffect('utter_cannot_handle')];

/**
 * action_deactivate_loop: ends the active (legacy form) loop and clears `requested_slot`, as Rasa's
 * ActionDeactivateLoop does.
 */
export const actionDeactivateLoop: BuiltInAction = () => [
  eventEffect({ event: 'active_loop', name: null }),
  eventEffect({ event: 'slot', name: 'requested_slot', value: null }),
];

/**
 * action_send_text: sends the message the prediction attached as `metadata.message` (Rasa's policies
 * and agent steps do); without one, Rasa's fallback `{text: ""}`. `should_send_text: false` sends nothing.
 */
export const actionSendText: BuiltInAction = (_state, _context, input) =>
  input.metadata['should_send_text'] === false ? [] : [eventEffect(messageFrom(input))];

/** action_agent_request_user_input: like action_send_text, always sending (Rasa then waits for the user). */
export const actionAgentRequestUserInput: BuiltInAction = (_state, _context, input) => [
  eventEffect(messageFrom(input)),
];

const MESSAGE_KEYS = ['elements', 'quick_replies', 'buttons', 'attachment', 'image', 'custom'] as const;

/** Rasa's create_bot_utterance over the `message` of the action metadata. */
function messageFrom(input: BuiltInInput): Omit<BotUttered, 'timestamp'> {
  const raw = input.metadata['message'];
  const message: Record<string, unknown> =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { ...raw } : { text: '' };
  const data: Record<string, unknown> = {};
  for (const key of MESSAGE_KEYS) {
    data[key] = message[key] ?? null;
    delete message[key];
  }
  data['attachment'] ??= data['image'];
  const text = typeof message['text'] === 'string' ? message['text'] : null;
  delete message['text'];
  return { event: 'bot', text, data, metadata: message };
}

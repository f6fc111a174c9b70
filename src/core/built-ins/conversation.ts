import type { BotUttered } from '../events/types.js';
import type { BuiltInAction, BuiltInInput } from './types.js';
import { eventEffect, optionalUtterEffect } from './types.js';

/** action_restart: utter_restart when the assistant has it, then forget the conversation (`restart`). */
export const actionRestart: BuiltInAction = () => [
  optionalUtterEffect('utter_restart'),
  eventEffect({ event: 'restart' }),
];

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

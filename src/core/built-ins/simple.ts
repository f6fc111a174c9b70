import type { BuiltInAction } from './types.js';
import { eventEffect, utterEffect } from './types.js';

/** action_listen and other markers: the runtime records the action; there is nothing else to do. */
export const noEffects: BuiltInAction = () => [];

/** action_hangup: ends the session (voice channels hang up on it). */
export const actionHangup: BuiltInAction = () => [eventEffect({ event: 'session_ended' })];

/**
 * action_trigger_search without a knowledge base (no EnterpriseSearchPolicy, or no documents to index):
 * it says so with the default `utter_no_knowledge_base` response instead of failing. With a knowledge
 * base, the composition root supplies the searching action (src/knowledge) in its place.
 */
export const actionTriggerSearch: BuiltInAction = () => [utterEffect('utter_no_knowledge_base')];

/** action_trigger_chitchat without an IntentlessPolicy (which Parley does not have): cannot handle. */
export const actionTriggerChitchat: BuiltInAction = () => [utterEffect('utter_cannot_handle')];

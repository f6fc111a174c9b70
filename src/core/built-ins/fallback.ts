import type { BuiltInAction } from './types.js';
import { eventEffect, optionalUtterEffect } from './types.js';

export const NLU_FALLBACK_INTENT = 'nlu_fallback';
export const OUT_OF_SCOPE_INTENT = 'out_of_scope';
export const ASK_AFFIRMATION = 'action_default_ask_affirmation';
export const ASK_REPHRASE = 'action_default_ask_rephrase';
export const DEFAULT_FALLBACK = 'action_default_fallback';

/**
 * action_default_fallback: `utter_default` (when the assistant has it), then `rewind`
 * (UserUtteranceReverted): the user message and what it caused are taken back, so the conversation
 * goes on as if the message had not been sent.
 */
export const actionDefaultFallback: BuiltInAction = () => [
  optionalUtterEffect('utter_default'),
  eventEffect({ event: 'rewind' }),
];

/** action_back: `utter_back` (when the assistant has it), then two `rewind`s: the previous turn is undone. */
export const actionBack: BuiltInAction = () => [
  optionalUtterEffect('utter_back'),
  eventEffect({ event: 'rewind' }),
  eventEffect({ event: 'rewind' }),
];

/** action_default_ask_rephrase: `utter_ask_rephrase` (when the assistant has it). */
export const actionDefaultAskRephrase: BuiltInAction = () => [optionalUtterEffect('utter_ask_rephrase')];

/**
 * action_default_ask_affirmation: Rasa's fixed question "Did you mean '<intent>'?" with Yes (`/<intent>`)
 * and No (`/out_of_scope`) buttons, about the latest message's intent (the runner-up when the top one
 * is `nlu_fallback`). Rasa fails without a user message; here the action then says nothing.
 */
export const actionDefaultAskAffirmation: BuiltInAction = (state) => {
  const message = state.latestMessage;
  if (!message) return [];
  const ranking = message.parse_data.intent_ranking ?? [];
  let intent = message.parse_data.intent.name;
  if (intent === NLU_FALLBACK_INTENT && ranking.length > 1) intent = ranking[1]?.name ?? null;
  const name = intent ?? 'None'; // Python's str(None), as Rasa's f-string prints it
  return [
    eventEffect({
      event: 'bot',
      text: `Did you mean '${name}'?`,
      data: {
        elements: null,
        quick_replies: null,
        buttons: [
          { title: 'Yes', payload: `/${name}` },
          { title: 'No', payload: `/${OUT_OF_SCOPE_INTENT}` },
        ],
        attachment: null,
        image: null,
        custom: null,
      },
      metadata: { utter_action: ASK_AFFIRMATION },
    }),
  ];
};

import type { BuiltInAction } from './types.js';
import { eventEffect } from './types.js';

/** action_repeat_bot_messages: sends again what the assistant said in its previous turn. */
export const actionRepeatBotMessages: BuiltInAction = (state) => {
  const messages = state.lastBotTurn.length > 0 ? state.lastBotTurn : state.previousBotTurn;
  return messages.map(({ text, data, metadata }) =>
    eventEffect({ event: 'bot', text, data, ...(metadata ? { metadata } : {}) }),
  );
};

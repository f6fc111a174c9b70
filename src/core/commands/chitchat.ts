import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** ChitChatAnswer: a reply to small talk (pushes pattern_chitchat). */
export const chitchatCommand: CommandDefinition<'chitchat'> = {
  name: 'chitchat',
  parse: () => ({ command: 'chitchat' }),
  apply: (_command, scope) => pushPattern(scope, 'pattern_chitchat'),
};

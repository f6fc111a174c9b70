import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** RepeatBotMessages: say the last messages again (pushes pattern_repeat_bot_messages). */
export const repeatBotMessagesCommand: CommandDefinition<'repeat'> = {
  name: 'repeat',
  parse: () => ({ command: 'repeat' }),
  apply: (_command, scope) => pushPattern(scope, 'pattern_repeat_bot_messages'),
};

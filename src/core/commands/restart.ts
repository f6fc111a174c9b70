import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** Restart: start the conversation over (pushes pattern_restart). */
export const restartCommand: CommandDefinition<'restart'> = {
  name: 'restart',
  parse: () => ({ command: 'restart' }),
  apply: (_command, scope) => pushPattern(scope, 'pattern_restart'),
};

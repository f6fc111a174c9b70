import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** SessionStart: a new session begins (pushes pattern_session_start). */
export const sessionStartCommand: CommandDefinition<'session start'> = {
  name: 'session start',
  parse: () => ({ command: 'session start' }),
  apply: (_command, scope) => pushPattern(scope, 'pattern_session_start'),
};

import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

export const DEFAULT_CANNOT_HANDLE_REASON = 'cannot_handle_default';

/** Nothing usable came out of the message; pattern_cannot_handle picks its answer from the reason. */
export const cannotHandleCommand: CommandDefinition<'cannot handle'> = {
  name: 'cannot handle',
  parse: (raw) =>
    typeof raw['reason'] === 'string'
      ? { command: 'cannot handle', reason: raw['reason'] }
      : { command: 'cannot handle' },
  apply: (command, scope) =>
    pushPattern(scope, 'pattern_cannot_handle', { reason: command.reason ?? DEFAULT_CANNOT_HANDLE_REASON }),
};

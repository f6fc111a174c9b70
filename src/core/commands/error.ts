import { isRecord } from './parse-helpers.js';
import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** Something failed while understanding the message (empty or too long input, an unreachable LLM). */
export const errorCommand: CommandDefinition<'error'> = {
  name: 'error',
  parse(raw) {
    const errorType =
      typeof raw['error_type'] === 'string' ? raw['error_type'] : 'rasa_internal_error_default';
    return {
      command: 'error',
      error_type: errorType,
      ...(isRecord(raw['info']) ? { info: raw['info'] } : {}),
    };
  },
  apply: (command, scope) =>
    pushPattern(scope, 'pattern_internal_error', {
      error_type: command.error_type,
      info: command.info ?? {},
    }),
};

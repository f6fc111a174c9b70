import { topUserFrame } from '../stack/operations.js';
import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** The user wants to skip the current question (only meaningful inside a flow). */
export const skipQuestionCommand: CommandDefinition<'skip question'> = {
  name: 'skip question',
  parse: () => ({ command: 'skip question' }),
  apply(_command, scope) {
    // a called flow always has its caller below it, so any active flow shows here
    if (topUserFrame(scope.draft.stack)) pushPattern(scope, 'pattern_skip_question');
  },
};

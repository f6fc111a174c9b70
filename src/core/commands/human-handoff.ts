import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** HumanHandoff: the user asks for a person (pushes pattern_human_handoff). */
export const humanHandoffCommand: CommandDefinition<'human handoff'> = {
  name: 'human handoff',
  parse: () => ({ command: 'human handoff' }),
  apply: (_command, scope) => pushPattern(scope, 'pattern_human_handoff'),
};

import type { CommandDefinition } from './types.js';

/**
 * Emitted by Rasa's multi-step generator to say "the user wants something else"; it carries no effect of
 * its own (a StartFlow in the same turn does the work), so applying it changes nothing.
 */
export const changeFlowCommand: CommandDefinition<'change flow'> = {
  name: 'change flow',
  parse: () => ({ command: 'change flow' }),
  apply: () => undefined,
};

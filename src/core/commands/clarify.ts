import { pop, topFrame } from '../stack/operations.js';
import { stringList } from './parse-helpers.js';
import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** The message fits several flows: ask which one (pattern_clarification with their readable names). */
export const clarifyCommand: CommandDefinition<'clarify'> = {
  name: 'clarify',
  parse: (raw) => ({ command: 'clarify', options: stringList(raw['options']) }),
  apply(command, scope) {
    const { draft, context } = scope;
    if (topFrame(draft.stack)?.type === 'pattern_completed') draft.setStack(pop(draft.stack));
    const flows = command.options.map((id) => context.flows.get(id)).filter((flow) => flow !== undefined);
    pushPattern(scope, 'pattern_clarification', {
      names: flows.map((flow) => flow.name),
      clarification_ids: flows.map((flow) => flow.id),
    });
  },
};

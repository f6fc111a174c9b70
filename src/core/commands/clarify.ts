import type { TurnDraft } from '../draft.js';
import { isUserFrame } from '../stack/frames.js';
import { findPattern, pop, topFrame } from '../stack/operations.js';
import { stringList } from './parse-helpers.js';
import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** The message fits several flows: ask which one (pattern_clarification with their readable names). */
export const clarifyCommand: CommandDefinition<'clarify'> = {
  name: 'clarify',
  parse: (raw) => ({ command: 'clarify', options: stringList(raw['options']) }),
  apply(command, scope) {
    const { draft, context } = scope;
    if (findPattern(draft.stack, 'pattern_completed')) endPatternsOnTop(draft);
    const flows = command.options.map((id) => context.flows.get(id)).filter((flow) => flow !== undefined);
    pushPattern(scope, 'pattern_clarification', {
      names: flows.map((flow) => flow.name),
      clarification_ids: flows.map((flow) => flow.id),
    });
  },
};

/**
 * Rasa's remove_pattern_completed_frames: a clarification replaces pattern_completed's "anything else?"
 * (Rasa 3.16+), so the pattern frames on top of the stack end instead of asking again afterwards.
 */
function endPatternsOnTop(draft: TurnDraft): void {
  let stack = draft.stack;
  for (let top = topFrame(stack); top && !isUserFrame(top); top = topFrame(stack)) {
    draft.emit({ event: 'flow_completed', flow_id: top.flow_id, step_id: top.step_id });
    stack = pop(stack);
  }
  draft.setStack(stack);
}

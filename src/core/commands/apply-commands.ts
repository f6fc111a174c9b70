import { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Event } from '../events/types.js';
import { patternFrame, push, topUserFrame } from '../stack/operations.js';
import { cleanUpCommands } from './cleanup.js';
import { applyCommand } from './index.js';
import type { Command, CommandOf } from './types.js';

/**
 * Applies one turn's commands (Rasa's command processor): clean up, order (the last StartFlow first when
 * no flow is active, then the rest reversed so the first started flow ends on top), apply each, and push
 * pattern_validate_slot for slots with domain validation that were set.
 */
export function applyCommands(
  state: TrackerState,
  commands: readonly Command[],
  context: EngineContext,
): { events: Event[]; state: TrackerState } {
  const cleaned = cleanUpCommands(commands, state, context);
  const ordered = executionOrder(cleaned, state);
  const draft = new TurnDraft({ state, context });
  const startedFlows = new Set(
    cleaned.flatMap((command) => (command.command === 'start flow' ? [command.flow] : [])),
  );
  const scope = { draft, context, originalStack: state.stack, startedFlows };
  for (const command of ordered) applyCommand(command, scope);
  pushSlotValidations(draft, context);
  return { events: [...draft.events], state: draft.state };
}

/**
 * Rasa's reorder_commands: with no user flow active, the LAST StartFlow goes to the end of the list (any
 * other StartFlow of the same flow is dropped, as Rasa removes every command equal to it), so that once
 * the list is reversed it runs first: its flow ends at the bottom, and the flows started before it,
 * pushed after it, run in the order the user asked for them.
 */
function executionOrder(commands: readonly Command[], state: TrackerState): Command[] {
  const last = commands.findLast(
    (command): command is CommandOf<'start flow'> => command.command === 'start flow',
  );
  if (topUserFrame(state.stack) || !last) return [...commands].reverse();
  const others = commands.filter((command) => command.command !== 'start flow' || command.flow !== last.flow);
  return [last, ...others.reverse()];
}

function pushSlotValidations(draft: TurnDraft, context: EngineContext): void {
  const setNames = new Set(draft.events.flatMap((event) => (event.event === 'slot' ? [event.name] : [])));
  for (const name of setNames) {
    const slot = context.domain.slots.get(name);
    if (!slot?.validation || !context.flows.has('pattern_validate_slot')) continue;
    const frame = patternFrame({
      frameId: context.newFrameId(),
      patternId: 'pattern_validate_slot',
      context: {
        validate: name,
        refill_utter: slot.validation.refillUtter ?? `utter_ask_${name}`,
        refill_action: `action_ask_${name}`,
        rejections: slot.validation.rejections.map((rejection) => ({
          if: rejection.condition.text,
          utter: rejection.utter,
        })),
      },
    });
    draft.setStack(push(draft.stack, frame));
  }
}

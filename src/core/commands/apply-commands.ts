import { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Event } from '../events/types.js';
import { patternFrame, push, topUserFrame } from '../stack/operations.js';
import { cleanUpCommands } from './cleanup.js';
import { applyCommand } from './index.js';
import type { Command } from './types.js';

/**
 * Applies one turn's commands (Rasa's command processor): clean up, order (a StartFlow first when no
 * flow is active, then the list reversed so the first started flow ends on top), apply each, and push
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
 * Rasa's reorder_commands: with no user flow active, the (first) StartFlow goes last in the list, so that
 * once the list is reversed it runs first and the other commands' patterns end up above its flow.
 */
function executionOrder(commands: readonly Command[], state: TrackerState): Command[] {
  const ordered = [...commands];
  if (!topUserFrame(state.stack)) {
    const first = ordered.findIndex((command) => command.command === 'start flow');
    if (first !== -1) ordered.push(...ordered.splice(first, 1));
  }
  return ordered.reverse();
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

/** How the answer to the asked slot sits with what else the NLU adapter read in the same message. */
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import { isUserFrame } from '../../core/stack/frames.js';
import type { ExtractedEntity } from './entities/types.js';
import { projectRepairIntents } from './repair-intents.js';

/** Whether an extracted entity fills the slot through one of its from_entity mappings. */
export function entityBacked(
  slotName: string,
  entities: readonly ExtractedEntity[],
  engine: EngineContext,
): boolean {
  const slot = engine.domain.slots.get(slotName);
  return (
    slot?.mappings.some(
      (mapping) =>
        mapping.type === 'from_entity' && entities.some((entity) => entity.entity === mapping.entity),
    ) ?? false
  );
}

/**
 * Whether an NLU adapter command stays beside the answer to the asked slot: an answer read from the words
 * of the message is not also a request for a flow that is not running, nor the project's own repair
 * intent (a shipped one gives way the same way), nor a value for the slot it answers; and the whole
 * message read as another slot's entity ("1500" as an amount) is the answer, not a correction.
 */
export function keptBesideAnswer(
  command: Command,
  answer: { command: Command; source: 'entity' | 'words' } | undefined,
  context: {
    repairName: string | undefined;
    entities: readonly ExtractedEntity[];
    text: string;
    state: TrackerState;
    engine: EngineContext;
  },
): boolean {
  if (!answer) return true;
  const fromWords = answer.source === 'words';
  switch (command.command) {
    case 'start flow':
      return !fromWords || runningFlows(context.state).has(command.flow);
    case 'set slot':
      if (answer.command.command === 'set slot' && command.name === answer.command.name) return false;
      return (
        !fromWords || entityBacked(command.name, partial(context.entities, context.text), context.engine)
      );
    default:
      return context.repairName === undefined;
  }
}

const repairIntentCache = new WeakMap<EngineContext['flows'], Map<string, string>>();

/** The project's intents that trigger a repair pattern (computed once per flow list). */
export function repairIntentsOf(engine: EngineContext): Map<string, string> {
  let repairs = repairIntentCache.get(engine.flows);
  if (!repairs) {
    repairs = projectRepairIntents(engine.flows.flows);
    repairIntentCache.set(engine.flows, repairs);
  }
  return repairs;
}

/** The entities that cover only part of the message (the rest of the message says something else). */
export function partial(entities: readonly ExtractedEntity[], text: string): ExtractedEntity[] {
  return entities.filter((entity) => text.slice(entity.start, entity.end).trim() !== text.trim());
}

/** The flows on the stack (user flows and the flows they called). */
export function runningFlows(state: TrackerState): Set<string> {
  return new Set(state.stack.filter(isUserFrame).map((frame) => frame.flow_id));
}

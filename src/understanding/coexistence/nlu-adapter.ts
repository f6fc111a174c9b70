/**
 * Rasa's NLUCommandAdapter inside a pipeline with an LLM command generator: the predicted intent starts
 * the flow whose `nlu_trigger` names it (at or above the trigger's confidence threshold), entities and
 * intents fill the slots that flows collect through their NLU mappings, and starting a flow routes the
 * session to CALM when the assistant has the routing slot.
 */
import { hasRoutingSlot, routeTo } from '../../core/coexistence.js';
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { NluResult } from '../nlu-command-adapter.js';
import { commandsFromNlu } from '../nlu-command-adapter.js';

export interface ClassifiedMessage {
  /** a domain intent, or null */
  readonly intent: string | null;
  readonly confidence: number;
  readonly entities: NluResult['entities'];
}

export function nluAdapterCommands(
  message: ClassifiedMessage,
  engine: EngineContext,
  state: TrackerState,
): Command[] {
  const commands = commandsFromNlu({ intent: message.intent, entities: message.entities }, engine, state);
  const collected = collectedSlots(engine);
  const kept = commands.filter(
    (command, index) =>
      command.command !== 'cannot handle' &&
      (command.command !== 'set slot' || collected.has(command.name)) &&
      !(index === 0 && triggerBelowThreshold(message, engine)),
  );
  const startsFlow = kept.some((command) => command.command === 'start flow');
  return startsFlow && hasRoutingSlot(engine.domain) ? [...kept, routeTo(true)] : kept;
}

/** The intent names a flow's nlu_trigger, but with less confidence than the trigger asks for. */
export function triggerBelowThreshold(message: ClassifiedMessage, engine: EngineContext): boolean {
  if (message.intent === null) return false;
  for (const flow of engine.flows.flows)
    for (const trigger of flow.nluTriggers)
      if (trigger.intent === message.intent) return message.confidence < trigger.confidenceThreshold;
  return false;
}

/** Rasa's `available_slot_names`: only slots that flows collect are CALM's to fill. */
function collectedSlots(engine: EngineContext): Set<string> {
  const names = new Set<string>();
  for (const flow of engine.flows.flows)
    for (const step of flow.steps) if (step.kind === 'collect') names.add(step.collect);
  return names;
}

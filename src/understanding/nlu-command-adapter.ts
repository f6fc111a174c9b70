import type { Command } from '../core/commands/types.js';
import type { MappingCondition, Slot, SlotMapping } from '../core/domain/types.js';
import type { EngineContext } from '../core/engine-context.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import { topUserFrame } from '../core/stack/operations.js';

export interface NluResult {
  readonly intent: string | null;
  readonly entities: readonly {
    readonly entity: string;
    readonly value: unknown;
    readonly role?: string;
    readonly group?: string;
  }[];
}

/** Intents whose nlu_trigger on a pattern maps to a command rather than a StartFlow (Rasa's rule). */
const PATTERN_INTENT_COMMANDS: Readonly<Record<string, Command>> = {
  pattern_session_start: { command: 'session start' },
  pattern_restart: { command: 'restart' },
  pattern_cancel_flow: { command: 'cancel flow' },
  pattern_chitchat: { command: 'chitchat' },
  pattern_human_handoff: { command: 'human handoff' },
  pattern_search: { command: 'knowledge' },
  pattern_skip_question: { command: 'skip question' },
  pattern_cannot_handle: { command: 'cannot handle' },
};

/**
 * Rasa's NLUCommandAdapter: an intent starts the flow whose `nlu_trigger` names it, and entities and
 * intents fill the slots whose NLU mappings (`from_entity`, `from_intent`) match, within their
 * `active_flow` conditions.
 */
export function commandsFromNlu(nlu: NluResult, engine: EngineContext, state: TrackerState): Command[] {
  const commands: Command[] = [];
  const started = nlu.intent === null ? undefined : triggeredFlow(nlu.intent, engine);
  if (started) commands.push(started);
  const activeFlows = new Set<string>();
  const active = topUserFrame(state.stack, { includeCallFrames: true });
  if (active) activeFlows.add(active.flow_id);
  if (started?.command === 'start flow') activeFlows.add(started.flow);
  for (const slot of engine.domain.slots.values()) {
    const value = slotValueFromNlu(slot, nlu, activeFlows);
    if (value !== undefined)
      commands.push({ command: 'set slot', name: slot.name, value: value.value, extractor: 'NLU' });
  }
  if (commands.length === 0 && nlu.intent !== null && !engine.domain.intents.has(nlu.intent)) {
    return [{ command: 'cannot handle', reason: 'cannot_handle_invalid_intent' }];
  }
  return commands;
}

function triggeredFlow(intent: string, engine: EngineContext): Command | undefined {
  const flow = engine.flows.flows.find((candidate) =>
    candidate.nluTriggers.some((trigger) => trigger.intent === intent),
  );
  if (!flow) return undefined;
  return PATTERN_INTENT_COMMANDS[flow.id] ?? { command: 'start flow', flow: flow.id };
}

function slotValueFromNlu(
  slot: Slot,
  nlu: NluResult,
  activeFlows: ReadonlySet<string>,
): { value: unknown } | undefined {
  for (const mapping of slot.mappings) {
    if (!conditionsHold(mapping.conditions, activeFlows) || !intentAllowed(mapping, nlu.intent)) continue;
    if (mapping.type === 'from_entity') {
      const entity = nlu.entities.find(
        (candidate) =>
          candidate.entity === mapping.entity &&
          (mapping.role === undefined || candidate.role === mapping.role) &&
          (mapping.group === undefined || candidate.group === mapping.group),
      );
      if (entity) return { value: entity.value };
    }
    if (mapping.type === 'from_intent' && nlu.intent !== null && mapping.intent.includes(nlu.intent))
      return { value: mapping.value };
  }
  return undefined;
}

function intentAllowed(mapping: SlotMapping, intent: string | null): boolean {
  if (mapping.type !== 'from_entity' && mapping.type !== 'from_text') return true;
  if (mapping.notIntent.length > 0 && intent !== null && mapping.notIntent.includes(intent)) return false;
  return mapping.intent.length === 0 || (intent !== null && mapping.intent.includes(intent));
}

function conditionsHold(conditions: readonly MappingCondition[], activeFlows: ReadonlySet<string>): boolean {
  if (conditions.length === 0) return true;
  return conditions.some(
    (condition) => condition.activeFlow === undefined || activeFlows.has(condition.activeFlow),
  );
}

import type { Command } from '../core/commands/types.js';
import { parseDirectPayload } from '../core/domain/direct-payload.js';
import type { EngineContext } from '../core/engine-context.js';
import type { ParseData } from '../core/events/types.js';
import type { CommandGenerator, Understanding } from '../core/ports.js';

const MAX_SLOTS = 10;
const NULL_VALUES = new Set(['none', 'null', 'undefined']);

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
 * Understands Rasa's direct payloads without any model: `/SetSlots(a=1, b=x)` fills slots, `/intent`
 * and `/intent{"entity": "value"}` start the flow whose `nlu_trigger` names the intent. Returns
 * undefined for text that is not a payload, so another generator can take it.
 */
export function understandPayload(text: string, engine: EngineContext): Understanding | undefined {
  const payload = parseDirectPayload(text);
  if (!payload || payload.kind === 'invalid') return undefined;
  if (payload.kind === 'set_slots') {
    if (payload.slots.length > MAX_SLOTS || payload.slots.some((slot) => !engine.domain.slots.has(slot.name)))
      return undefined;
    const commands: Command[] = payload.slots.map(({ name, value }) => ({
      command: 'set slot',
      name,
      value: NULL_VALUES.has(value.toLowerCase()) ? null : value,
      extractor: 'CommandPayloadReader',
    }));
    return { commands, parseData: parseData(text, null, []) };
  }
  const entities = payload.entities.map(({ entity, value }) => ({ entity, value }));
  return {
    commands: commandsForIntent(payload.intent, engine),
    parseData: parseData(text, payload.intent, entities, payload.confidence),
  };
}

export function commandsForIntent(intent: string, engine: EngineContext): Command[] {
  const flow = engine.flows.flows.find((candidate) =>
    candidate.nluTriggers.some((trigger) => trigger.intent === intent),
  );
  if (flow) return [PATTERN_INTENT_COMMANDS[flow.id] ?? { command: 'start flow', flow: flow.id }];
  if (!engine.domain.intents.has(intent))
    return [{ command: 'cannot handle', reason: 'cannot_handle_invalid_intent' }];
  return [];
}

function parseData(
  text: string,
  intent: string | null,
  entities: ParseData['entities'],
  confidence = 1,
): ParseData {
  return { text, intent: { name: intent, confidence: intent ? confidence : 0 }, entities };
}

/**
 * Until trained NLU and LLM understanding land, this is the whole understanding: payloads become
 * commands, and any other text cannot be handled.
 */
export class PayloadCommandGenerator implements CommandGenerator {
  async understand(input: { text: string; engine: EngineContext }): Promise<Understanding> {
    const understood = understandPayload(input.text, input.engine);
    if (understood) return understood;
    const stripped = input.text.replace(/^\/+/, '');
    return { commands: [{ command: 'cannot handle' }], parseData: parseData(stripped, null, []) };
  }
}

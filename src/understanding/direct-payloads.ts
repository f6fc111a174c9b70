import type { Command } from '../core/commands/types.js';
import { readDirectPayload, sanitizedUserText } from '../core/domain/direct-payload.js';
import type { EngineContext } from '../core/engine-context.js';
import type { ParseData } from '../core/events/types.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { CommandGenerator, Understanding } from '../core/ports.js';
import { commandsFromNlu } from './nlu-command-adapter.js';
import type { TraceSink } from '../core/ports.js';
import { tracedPayload, traceUnderstood } from './trace-understanding.js';

const NULL_VALUES = new Set(['none', 'null', 'undefined']);

/**
 * Understands Rasa's direct payloads without any model: `/SetSlots(a=1, b=x)` fills slots, `/intent`
 * and `/intent{"entity": "value"}` start the flow whose `nlu_trigger` names the intent. Returns
 * undefined for text that is not a payload, so another generator can take it.
 */
export function understandPayload(
  text: string,
  engine: EngineContext,
  state: TrackerState,
): Understanding | undefined {
  const payload = readDirectPayload(text, engine.domain.slots);
  if (!payload) return undefined;
  if (payload.kind === 'set_slots') {
    const commands: Command[] = payload.slots.map(({ name, value }) => ({
      command: 'set slot',
      name,
      value: NULL_VALUES.has(value.toLowerCase()) ? null : value,
      extractor: 'CommandPayloadReader',
    }));
    return { commands, parseData: parseData(text, null, []) };
  }
  const entities = payload.entities.map(({ entity, value }) => ({ entity, value }));
  const commands = commandsFromNlu({ intent: payload.intent, entities }, engine, state);
  return { commands, parseData: parseData(text, payload.intent, entities, payload.confidence) };
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
 * Payload-only understanding, for runs whose free text comes from a command oracle (or where no
 * other understanding is configured): payloads become commands, any other text cannot be handled.
 */
export class PayloadCommandGenerator implements CommandGenerator {
  async understand(input: {
    text: string;
    state: TrackerState;
    engine: EngineContext;
    trace?: TraceSink;
  }): Promise<Understanding> {
    const understood = understandPayload(input.text, input.engine, input.state);
    if (understood) return tracedPayload(input, understood);
    const text = sanitizedUserText(input.text, input.engine.domain.slots);
    const commands: Command[] = [{ command: 'cannot handle' }];
    traceUnderstood(
      input,
      { kind: 'fallback', reason: 'not a payload: only payloads are understood' },
      commands,
    );
    return { commands, parseData: parseData(text, null, []) };
  }
}

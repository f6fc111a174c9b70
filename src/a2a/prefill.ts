/**
 * A data part in an incoming message pre-fills slots (rasa-a2a.md §4.4). Accepted shapes:
 * `{"slots": {"name": value}}`, the Rasa client's `{"slots": [{"name": ..., "value": ...}]}`, and a plain
 * object of slot names, `{"city": "Porto"}` (what an orchestrator that knows the skill's slots sends).
 * The values become `set slot` commands added after the commands understanding found in the text, so
 * they behave like `/SetSlots(...)`: a slot is filled when the dialogue may fill it in this turn (a flow
 * asking for it, or started by the same message). Unknown slot names are ignored with a warning.
 */
import type { Command } from '../core/commands/types.js';
import type { CommandGenerator, Understanding } from '../core/ports.js';
import type { Part } from './tasks/model.js';

export interface Prefill {
  readonly commands: readonly Command[];
  readonly warnings: readonly string[];
}

export function prefillFromParts(parts: readonly Part[], knownSlots: ReadonlySet<string>): Prefill {
  const commands: Command[] = [];
  const warnings: string[] = [];
  for (const part of parts) {
    if (part.kind !== 'data') continue;
    for (const [name, value] of slotEntries(part.data)) {
      if (!knownSlots.has(name)) {
        warnings.push(`unknown slot '${name}' ignored`);
        continue;
      }
      commands.push({ command: 'set slot', name, value, extractor: 'CommandPayloadReader' });
    }
  }
  return { commands, warnings };
}

function slotEntries(data: unknown): [string, unknown][] {
  if (!isRecord(data)) return [];
  const slots = data['slots'];
  if (Array.isArray(slots))
    return slots.flatMap((item): [string, unknown][] =>
      isRecord(item) && typeof item['name'] === 'string' ? [[item['name'], item['value'] ?? null]] : [],
    );
  // without a `slots` object or list, the data part is the slots themselves
  return Object.entries(isRecord(slots) ? slots : data);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NOTHING_UNDERSTOOD: Understanding = {
  commands: [],
  parseData: { intent: { name: null, confidence: 0 }, entities: [] },
};

/** The assistant's understanding of the text, followed by the pre-filled slots' commands. */
export function prefillingGenerator(base: CommandGenerator, prefill: readonly Command[]): CommandGenerator {
  return {
    async understand(input) {
      const understood = input.text.trim() === '' ? NOTHING_UNDERSTOOD : await base.understand(input);
      return { ...understood, commands: [...understood.commands, ...prefill] };
    },
  };
}

/**
 * Why cleaning a turn's commands (commands/cleanup.ts) dropped or changed each one. Only the trace asks
 * this: it cleans every command again, alone, and compares, so the engine's own cleaning stays as it is.
 */
import { ROUTE_TO_CALM_SLOT } from '../coexistence.js';
import {
  cleanOne,
  cleanUpCommands,
  chitchatIsCannotHandle,
  extractorMaySet,
  finalise,
} from '../commands/cleanup.js';
import type { Command } from '../commands/types.js';
import type { CorrectedSlot } from '../commands/types.js';
import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import { topUserFrame } from '../stack/operations.js';
import type { CommandCleanup } from './trace-events.js';

export function explainCleanUp(
  commands: readonly Command[],
  state: TrackerState,
  context: EngineContext,
): { changes: CommandCleanup[]; applied: Command[] } {
  const changes: CommandCleanup[] = [];
  const kept: Command[] = [];
  const corrections: CorrectedSlot[] = [];
  for (const command of commands) {
    const before = corrections.length;
    const result = cleanOne(command, state, context, { corrections });
    kept.push(...result);
    const change = changeOf(command, result, corrections.length > before, { state, context });
    if (change) changes.push(change);
  }
  if (corrections.length > 0) kept.push({ command: 'correct slot', corrected_slots: corrections });
  const final = finalise(kept);
  for (const command of kept)
    if (!final.includes(command))
      changes.push({ command, outcome: 'dropped', reason: finalReason(command, final) });
  return { changes, applied: cleanUpCommands(commands, state, context) };
}

function changeOf(
  command: Command,
  result: readonly Command[],
  corrected: boolean,
  at: { state: TrackerState; context: EngineContext },
): CommandCleanup | undefined {
  if (corrected)
    return { command, outcome: 'corrected', reason: 'the slot already had a value: it becomes a correction' };
  const [first] = result;
  if (first === command && result.length === 1) return undefined;
  const reason = reasonFor(command, at.state, at.context);
  if (!first) return { command, outcome: 'dropped', reason };
  return { command, outcome: 'replaced', reason, replacement: first };
}

function reasonFor(command: Command, state: TrackerState, context: EngineContext): string {
  switch (command.command) {
    case 'set slot': {
      const slot = context.domain.slots.get(command.name);
      if (!slot) return `the domain has no slot '${command.name}'`;
      const mappings = slot.mappings.map((mapping) => mapping.type);
      if (command.name !== ROUTE_TO_CALM_SLOT && !extractorMaySet(command, mappings))
        return `extractor ${command.extractor ?? 'LLM'} may not fill '${command.name}' (mappings: ${
          mappings.join(', ') || 'none'
        })`;
      return `'${command.name}' already has this value, or was corrected already this turn`;
    }
    case 'cancel flow':
      return 'no flow is active to cancel';
    case 'start flow':
      return context.flows.has(command.flow)
        ? `flow '${command.flow}' is already active`
        : `the assistant has no flow '${command.flow}'`;
    case 'chitchat':
      return chitchatIsCannotHandle(context)
        ? 'pattern_chitchat triggers action_trigger_chitchat, which needs an IntentlessPolicy'
        : 'chitchat';
    case 'clarify':
      return 'clarify options are narrowed to known user flows (one option starts it, none drops it)';
    default:
      return topUserFrame(state.stack) ? 'changed by cleaning' : 'changed by cleaning (no flow active)';
  }
}

function finalReason(command: Command, final: readonly Command[]): string {
  if (command.command === 'cannot handle') return 'cannot handle is dropped when other commands remain';
  if (command.command === 'clarify') return 'clarify is dropped beside other commands';
  if (final.some((other) => other.command === command.command)) return 'only one of these is kept per turn';
  return 'dropped by the final clean-up';
}

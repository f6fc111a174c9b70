import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Frame, Stack } from '../stack/frames.js';
import { isAgentFrame, isUserFrame } from '../stack/frames.js';
import { findPattern, topUserFrame } from '../stack/operations.js';
import { ROUTE_TO_CALM_SLOT } from '../coexistence.js';
import { coerceSlotValue } from '../domain/slot-values.js';
import type { Command, CommandOf, CorrectedSlot } from './types.js';

const FREE_FORM: readonly Command['command'][] = ['chitchat', 'knowledge'];
const AT_MOST_ONCE: readonly Command['command'][] = ['cannot handle', 'repeat', 'chitchat', 'cancel flow'];

/**
 * Rasa's clean_up_commands: drop what cannot apply, turn changes to filled slots into one correction,
 * turn impossible requests into CannotHandle, put free-form answers first, and keep CannotHandle only
 * when nothing else is left.
 */
export function cleanUpCommands(
  commands: readonly Command[],
  state: TrackerState,
  context: EngineContext,
): Command[] {
  const cleaned: Command[] = [];
  const corrections: CorrectedSlot[] = [];
  for (const command of commands) {
    for (const result of cleanOne(command, state, context, { corrections })) cleaned.push(result);
  }
  if (corrections.length > 0) cleaned.push({ command: 'correct slot', corrected_slots: corrections });
  const result = finalise(cleaned);
  // Rasa's ContinueAgent: what the assistant cannot handle itself goes to the sub-agent holding the
  // conversation (its frame is on top), instead of pattern_cannot_handle
  return isAgentFrame(state.stack.at(-1))
    ? result.filter((command) => command.command !== 'cannot handle')
    : result;
}

interface Accumulated {
  readonly corrections: CorrectedSlot[];
}

function cleanOne(command: Command, state: TrackerState, context: EngineContext, so: Accumulated): Command[] {
  switch (command.command) {
    case 'set slot':
      return cleanSetSlot(command, state, context, so);
    case 'cancel flow':
      return topUserFrame(state.stack, { includeCallFrames: true }) ? [command] : [cannotHandle()];
    case 'start flow':
      return cleanStartFlow(command, state, context);
    case 'chitchat':
      return [chitchatIsCannotHandle(context) ? cannotHandle('cannot_handle_chitchat') : command];
    case 'clarify':
      return cleanClarify(command, context);
    default:
      return [command];
  }
}

function cleanSetSlot(
  command: CommandOf<'set slot'>,
  state: TrackerState,
  context: EngineContext,
  so: Accumulated,
): Command[] {
  const slot = context.domain.slots.get(command.name);
  if (!slot) return [cannotHandle()];
  // the router's and the generators' routing decision is never a correction, whatever the slot's mappings
  if (command.name === ROUTE_TO_CALM_SLOT) return [command];
  // a slot this extractor may not fill is a CannotHandle, which finalise drops when other commands remain
  const mappings = slot.mappings.map((mapping) => mapping.type);
  if (!extractorMaySet(command, mappings)) return [cannotHandle()];
  const current = state.slots[command.name] ?? null;
  if (current === null || activeCollectSlot(state.stack) === command.name) return [command];
  const coerced = coerceSlotValue(slot, command.value);
  const value = coerced.ok ? coerced.value : command.value;
  if (String(value) === String(current)) return [];
  if (so.corrections.some((correction) => correction.name === command.name)) return [];
  so.corrections.push({ name: command.name, value, filled_by: command.extractor ?? 'LLM' });
  return [];
}

/** Button payloads may set any slot; the LLM only from_llm slots; NLU only NLU-mapped slots; nobody controlled-only ones. */
function extractorMaySet(command: CommandOf<'set slot'>, mappings: readonly string[]): boolean {
  const extractor = command.extractor ?? 'LLM';
  if (extractor === 'CommandPayloadReader' || extractor === 'CUSTOM') return true;
  if (extractor === 'LLM') return mappings.includes('from_llm');
  return mappings.some((type) => type !== 'from_llm' && type !== 'controlled');
}

function cleanStartFlow(
  command: CommandOf<'start flow'>,
  state: TrackerState,
  context: EngineContext,
): Command[] {
  if (!context.flows.has(command.flow)) return [];
  const active = topUserFrame(state.stack, { includeCallFrames: true });
  const continuing = findPattern(state.stack, 'pattern_continue_interrupted') !== undefined;
  return active?.flow_id === command.flow && !continuing ? [] : [command];
}

function cleanClarify(command: CommandOf<'clarify'>, context: EngineContext): Command[] {
  const options = [...new Set(command.options)]
    .filter((id) => context.flows.has(id) && !id.startsWith('pattern_'))
    .sort();
  if (options.length === 0) return [];
  if (options.length === 1) return [{ command: 'start flow', flow: options[0] as string }];
  return [{ command: 'clarify', options }];
}

/** Rasa answers chitchat with action_trigger_chitchat only with an IntentlessPolicy; otherwise it cannot. */
function chitchatIsCannotHandle(context: EngineContext): boolean {
  const pattern = context.flows.get('pattern_chitchat');
  const triggers =
    pattern?.steps.some((step) => step.kind === 'action' && step.action === 'action_trigger_chitchat') ??
    false;
  return triggers && !context.options.hasIntentlessPolicy;
}

function finalise(commands: readonly Command[]): Command[] {
  const clarifies = commands.filter((command) => command.command === 'clarify');
  let result: Command[] =
    clarifies.length === commands.length
      ? clarifies.slice(0, 1)
      : commands.filter((command) => command.command !== 'clarify');
  result = result.filter(
    (command, index) =>
      !AT_MOST_ONCE.includes(command.command) ||
      result.findIndex((other) => other.command === command.command) === index,
  );
  const freeForm = result.filter((command) => FREE_FORM.includes(command.command));
  result = [...freeForm, ...result.filter((command) => !FREE_FORM.includes(command.command))];
  const others = result.filter((command) => command.command !== 'cannot handle');
  return others.length > 0 ? others : result;
}

function cannotHandle(reason?: string): Command {
  return reason ? { command: 'cannot handle', reason } : { command: 'cannot handle' };
}

/** The slot being asked right now: a collect pattern with nothing but other patterns above it. */
export function activeCollectSlot(stack: Stack): string | undefined {
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const frame = stack[index] as Frame;
    if (isUserFrame(frame)) return undefined;
    if (frame.type === 'pattern_collect_information' && typeof frame['collect'] === 'string')
      return frame['collect'];
  }
  return undefined;
}

/**
 * How an LLM command generator treats the commands that components before it (the NLU command adapter)
 * already predicted, as Rasa's LLM-based generators do: with `minimize_num_calls` the LLM is not asked
 * when those commands start a flow or fill the slot being collected; otherwise its commands are merged
 * after them, the earlier components winning where both speak about the same slot or start different flows.
 */
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import { topUserFrame } from '../../core/stack/operations.js';

/** Rasa's `_should_skip_llm_call`. */
export function llmCallIsSkipped(
  prior: readonly Command[],
  state: TrackerState,
  engine: EngineContext,
  minimizeNumCalls: boolean,
): boolean {
  if (!minimizeNumCalls) return false;
  if (prior.some((command) => command.command === 'start flow')) return true;
  const collected = collectedNow(state, engine);
  return (
    collected !== undefined &&
    prior.some((command) => command.command === 'set slot' && command.name === collected)
  );
}

/** The slot the top user flow (called flows included) is collecting, if it stands at a collect step. */
function collectedNow(state: TrackerState, engine: EngineContext): string | undefined {
  const frame = topUserFrame(state.stack, { includeCallFrames: true });
  const step = frame ? engine.flows.step(frame.flow_id, frame.step_id) : undefined;
  return step?.kind === 'collect' ? step.collect : undefined;
}

/**
 * Rasa's `_check_commands_overlap`: the prior commands first, then the LLM's without SetSlots (and
 * corrected slots) for slots the prior commands already set, and without StartFlows for other flows
 * than the prior commands start (a StartFlow of the same flow is kept once).
 */
export function mergeWithPrior(prior: readonly Command[], llm: readonly Command[]): Command[] {
  if (prior.length === 0) return [...llm];
  const priorSlots = slotNames(prior);
  const withoutOverlap = llm.flatMap((command) => withoutSlots(command, priorSlots));
  const priorFlows = new Set(prior.flatMap((c) => (c.command === 'start flow' ? [c.flow] : [])));
  if (priorFlows.size === 0) return [...prior, ...withoutOverlap];
  // other flows than the prior ones are dropped; the same flow twice is started once
  const kept = withoutOverlap.filter((command) => command.command !== 'start flow');
  return [...prior, ...kept];
}

function slotNames(commands: readonly Command[]): Set<string> {
  const names = new Set<string>();
  for (const command of commands) {
    if (command.command === 'set slot') names.add(command.name);
    if (command.command === 'correct slot') for (const slot of command.corrected_slots) names.add(slot.name);
  }
  return names;
}

function withoutSlots(command: Command, names: ReadonlySet<string>): Command[] {
  if (command.command === 'set slot') return names.has(command.name) ? [] : [command];
  if (command.command !== 'correct slot') return [command];
  const kept = command.corrected_slots.filter((slot) => !names.has(slot.name));
  return kept.length === 0 ? [] : [{ ...command, corrected_slots: kept }];
}

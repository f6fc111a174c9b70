/**
 * The facts a command prompt carries, gathered from the assistant and the tracker state: the flows on
 * offer with the slots they collect, where the conversation is (flow, step, requested slot, slot
 * values) and the recent conversation.
 */
import type { Slot } from '../../core/domain/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import { stepsWithCalls } from '../../core/executor/slot-reset.js';
import type { CollectStep, Flow } from '../../core/flows/types.js';
import { findPattern, topUserFrame } from '../../core/stack/operations.js';

/** One message of the conversation, as the prompt shows it. */
export interface ConversationTurn {
  readonly role: 'user' | 'bot';
  readonly text: string;
}

export interface PromptSlot {
  readonly name: string;
  readonly description?: string;
  readonly allowedValues?: readonly string[];
}

export interface PromptFlow {
  readonly id: string;
  readonly description: string;
  readonly slots: readonly PromptSlot[];
}

export interface PromptSlotState extends PromptSlot {
  /** the value as the prompt shows it; `undefined` when the slot is empty (Rasa's wording) */
  readonly value: string;
  readonly type: string;
}

/** Where the conversation is; absent when no user flow is active. */
export interface PromptCurrentState {
  readonly flowId: string;
  readonly stepId: string;
  readonly requestedSlot?: string;
  readonly requestedSlotDescription?: string;
  readonly slots: readonly PromptSlotState[];
}

const COLLECT_PATTERN = 'pattern_collect_information';

/** The flows for the prompt, each with the slots it (and the flows it calls) may fill now. */
export function promptFlows(
  flows: readonly Flow[],
  state: TrackerState,
  engine: EngineContext,
): PromptFlow[] {
  const asked = requestedSlot(state);
  return flows.map((flow) => ({
    id: flow.id,
    description: flow.description,
    slots: extractableCollects(flow, state, engine, asked).map((step) => slotInfo(step, engine)),
  }));
}

/** The active flow, its step and slots, and the slot being asked (the topmost collect pattern's). */
export function currentState(state: TrackerState, engine: EngineContext): PromptCurrentState | undefined {
  const top = topUserFrame(state.stack);
  const flow = top ? engine.flows.get(top.flow_id) : undefined;
  if (!top || !flow) return undefined;
  const called = topUserFrame(state.stack, { includeCallFrames: true }) ?? top;
  const asked = requestedSlot(state);
  const askedStep = asked === undefined ? undefined : collectStepFor(asked, state, engine);
  const slots = extractableCollects(flow, state, engine, asked).map((step) => ({
    ...slotInfo(step, engine),
    value: displayValue(state.slots[step.collect]),
    type: engine.domain.slots.get(step.collect)?.type ?? 'any',
  }));
  return {
    flowId: flow.id,
    stepId: called.step_id,
    ...(asked === undefined ? {} : { requestedSlot: asked }),
    ...(askedStep?.description ? { requestedSlotDescription: askedStep.description } : {}),
    slots,
  };
}

/** The slot the bot is asking for: the `collect` of the topmost collect pattern on the stack. */
export function requestedSlot(state: TrackerState): string | undefined {
  const collect = findPattern(state.stack, COLLECT_PATTERN)?.['collect'];
  return typeof collect === 'string' ? collect : undefined;
}

/** The collect step asking for the slot: the step of the active (called) flow, else any that collects it. */
function collectStepFor(slot: string, state: TrackerState, engine: EngineContext): CollectStep | undefined {
  const frame = topUserFrame(state.stack, { includeCallFrames: true });
  const step = frame ? engine.flows.step(frame.flow_id, frame.step_id) : undefined;
  if (step?.kind === 'collect' && step.collect === slot) return step;
  for (const flow of engine.flows.flows) {
    const found = flow.steps.find((candidate) => candidate.kind === 'collect' && candidate.collect === slot);
    if (found?.kind === 'collect') return found;
  }
  return undefined;
}

/**
 * Rasa's "extractable" collects: slots the domain declares, collected without `ask_before_filling`, or
 * already filled, or being asked right now. One entry per slot.
 */
function extractableCollects(
  flow: Flow,
  state: TrackerState,
  engine: EngineContext,
  asked: string | undefined,
): CollectStep[] {
  const seen = new Set<string>();
  const steps: CollectStep[] = [];
  for (const step of stepsWithCalls(engine.flows, flow)) {
    if (step.kind !== 'collect' || seen.has(step.collect) || !engine.domain.slots.has(step.collect)) continue;
    const value = state.slots[step.collect];
    const filled = value !== null && value !== undefined;
    if (!step.askBeforeFilling || filled || step.collect === asked) {
      seen.add(step.collect);
      steps.push(step);
    }
  }
  return steps;
}

function slotInfo(step: CollectStep, engine: EngineContext): PromptSlot {
  const allowed = allowedValues(engine.domain.slots.get(step.collect));
  return {
    name: step.collect,
    ...(step.description ? { description: step.description } : {}),
    ...(allowed ? { allowedValues: allowed } : {}),
  };
}

/** Categorical values, or True/False for booleans (the Python spelling the DSL expects). */
function allowedValues(slot: Slot | undefined): readonly string[] | undefined {
  if (slot?.type === 'bool') return ['True', 'False'];
  if (slot?.type === 'categorical' && slot.values.length > 0) return slot.values;
  return undefined;
}

/** A slot value as Python's str() would print it; empty slots read `undefined`. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return 'undefined';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * The recent conversation (the tracker state keeps the latest messages of the session): a user message
 * that is a button's payload shows as the button's title, as the user saw it.
 */
export function turnsFromState(state: TrackerState): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  let shownButtons: readonly { readonly title: string; readonly payload: string }[] = [];
  for (const message of state.recentMessages) {
    if (message.event === 'bot') {
      const turn = botTurn(message.text, message.buttons);
      if (turn) turns.push(turn);
      shownButtons = [...shownButtons, ...message.buttons];
      continue;
    }
    const text = message.text ?? '';
    const button = shownButtons.find((candidate) => candidate.payload === text);
    turns.push({ role: 'user', text: button?.title ?? text });
    shownButtons = [];
  }
  return turns;
}

/** A bot message as the prompt shows it: its text and its buttons' titles; none when both are empty. */
function botTurn(
  text: string | null,
  buttons: readonly { readonly title: string }[],
): ConversationTurn | undefined {
  const titles = buttons.map((button) => button.title);
  const shown = [text ?? '', titles.length > 0 ? `(options: ${titles.join(', ')})` : '']
    .filter((part) => part.length > 0)
    .join(' ');
  return shown ? { role: 'bot', text: shown } : undefined;
}

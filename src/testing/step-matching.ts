import type { BotUttered, Event, SlotSet } from '../core/events/types.js';
import type { E2EStep, SlotExpectation } from './e2e-model.js';
import { pyEquals, pyStr, pyTypeName } from './python-values.js';
import type { TurnLog } from './turn-log.js';

export const NO_RESPONSE = '* No Bot Response *';
export const NO_SLOT = '* No Slot Set *';

/** One expected line of a test case in the step format; a slot list counts one line per slot, as in Rasa. */
interface Expectation {
  readonly stepIndex: number;
  readonly step: E2EStep;
  readonly slot?: SlotExpectation;
  readonly line: number;
}

interface Checked extends Expectation {
  /** the events of the user turn this line was checked against */
  readonly events: readonly Event[];
  readonly passed: boolean;
}

export interface StepMismatch {
  readonly line: number;
  readonly message: string;
  /** the events of the turn the step was checked against */
  readonly events: readonly Event[];
}

export interface StepCheck {
  readonly mismatches: readonly StepMismatch[];
  /** Rasa's diff: `  ` same, `- ` actual, `+ ` expected, up to the last mismatch */
  readonly difference: readonly string[];
}

/**
 * Checks a test case written in the step format. Each bot/utter/slot line must be met by an event of its
 * user turn (membership: order is not checked, extra events are allowed); lines before the first user
 * step are checked against the session start. Every mismatch is collected, as Rasa does. Steps from
 * `stopAt` on are not checked (the conversation ended there).
 */
export function checkSteps(steps: readonly E2EStep[], log: TurnLog, stopAt = steps.length): StepCheck {
  let current = log.initial();
  const checked: Checked[] = [];
  for (const expectation of expectations(steps.slice(0, stopAt))) {
    if (expectation.step.kind === 'user') {
      current = log.turn(expectation.stepIndex) ?? current;
      checked.push({ ...expectation, events: current, passed: true });
    } else {
      checked.push({ ...expectation, events: current, passed: matchesTurn(expectation, current) });
    }
  }
  const mismatches = checked
    .filter((item) => !item.passed)
    .map((item) => ({ line: item.line, message: mismatchMessage(item), events: item.events }));
  return { mismatches, difference: mismatches.length > 0 ? difference(checked) : [] };
}

function expectations(steps: readonly E2EStep[]): Expectation[] {
  return steps.flatMap((step, stepIndex) =>
    step.kind === 'slot_was_set' || step.kind === 'slot_was_not_set'
      ? step.slots.map((slot) => ({ stepIndex, step, slot, line: slot.line }))
      : [{ stepIndex, step, line: step.line }],
  );
}

const bots = (events: readonly Event[]): BotUttered[] =>
  events.filter((event): event is BotUttered => event.event === 'bot');
const slotSets = (events: readonly Event[]): SlotSet[] =>
  events.filter((event): event is SlotSet => event.event === 'slot');

function botMatches(step: E2EStep, event: BotUttered): boolean {
  if (step.kind === 'bot') return event.text === step.text;
  if (step.kind === 'utter') return event.metadata?.utter_action === step.name;
  return false;
}

function slotMatches(slot: SlotExpectation, event: SlotSet): boolean {
  return event.name === slot.name && (!slot.hasValue || pyEquals(event.value, slot.value));
}

function matchesTurn(expectation: Expectation, events: readonly Event[]): boolean {
  const { step, slot } = expectation;
  switch (step.kind) {
    case 'bot':
    case 'utter':
      return bots(events).some((event) => botMatches(step, event));
    case 'slot_was_set':
      return slot !== undefined && slotSets(events).some((event) => slotMatches(slot, event));
    case 'slot_was_not_set':
      return slot !== undefined && !slotSets(events).some((event) => slotMatches(slot, event));
    case 'user':
      return true;
  }
}

function mismatchMessage({ step, slot }: Checked): string {
  const valued = slot?.hasValue ? ` to '${pyStr(slot.value)}'` : '';
  switch (step.kind) {
    case 'bot':
      return `Bot did not utter the text '${step.text}'.`;
    case 'utter':
      return `Bot did not utter '${step.name}' response.`;
    case 'slot_was_set':
      return `Slot '${slot?.name}' was not set${valued}.`;
    case 'slot_was_not_set':
      return `Slot '${slot?.name}' was set${valued} but it should not have been set.`;
    case 'user':
      return '';
  }
}

const slotText = (name: string, value: unknown): string => `${name}: ${pyStr(value)} (${pyTypeName(value)})`;

/**
 * Rasa's human-readable diff: each line of the test up to the last mismatch, the same on both sides where
 * it passed. A passing line consumes the event it matched, so a mismatch shows an event no line claims.
 */
function difference(checked: readonly Checked[]): string[] {
  const remaining = new Map<readonly Event[], { bots: BotUttered[]; slots: SlotSet[] }>();
  const pool = (events: readonly Event[]): { bots: BotUttered[]; slots: SlotSet[] } => {
    let entry = remaining.get(events);
    if (!entry) remaining.set(events, (entry = { bots: bots(events), slots: slotSets(events) }));
    return entry;
  };
  const take = <T>(list: T[], predicate: (item: T) => boolean): T | undefined => {
    const index = list.findIndex(predicate);
    return index < 0 ? undefined : list.splice(index, 1)[0];
  };
  const last = checked.map((item) => item.passed).lastIndexOf(false);
  const lines: string[] = [];
  checked.slice(0, last + 1).forEach((item, position) => {
    const { step, slot } = item;
    const available = pool(item.events);
    if (step.kind === 'user') {
      lines.push(`  user: ${step.text}`);
    } else if (step.kind === 'bot' || step.kind === 'utter') {
      const expected = `bot: ${step.kind === 'bot' ? step.text : step.name}`;
      if (item.passed) {
        take(available.bots, (event) => botMatches(step, event));
        lines.push(`  ${expected}`);
        return;
      }
      const claimed = laterBotSteps(checked, position);
      const event = take(
        available.bots,
        (candidate) => !claimed.some((other) => botMatches(other, candidate)),
      );
      const shown = step.kind === 'bot' ? event?.text : event?.metadata?.utter_action;
      lines.push(`- ${event ? `bot: ${pyStr(shown)}` : NO_RESPONSE}`, `+ ${expected}`);
    } else if (slot) {
      lines.push(...slotDiff(step.kind, slot, item.passed, available.slots, take));
    }
  });
  return lines;
}

/** The bot/utter lines of the same turn from `position` on: their events are not shown as unexpected. */
function laterBotSteps(checked: readonly Checked[], position: number): E2EStep[] {
  const steps: E2EStep[] = [];
  for (const item of checked.slice(position)) {
    if (item.step.kind === 'user') break;
    if (item.step.kind === 'bot' || item.step.kind === 'utter') steps.push(item.step);
  }
  return steps;
}

function slotDiff(
  kind: 'slot_was_set' | 'slot_was_not_set',
  slot: SlotExpectation,
  passed: boolean,
  slots: SlotSet[],
  take: (list: SlotSet[], predicate: (item: SlotSet) => boolean) => SlotSet | undefined,
): string[] {
  if (kind === 'slot_was_not_set') {
    const expected = `slot_was_not_set: ${slot.name}${slot.hasValue ? `: ${pyStr(slot.value)}` : ''}`;
    if (passed) return [`  ${expected}`];
    const event = take(slots, (candidate) => candidate.name === slot.name);
    return [`- ${event ? `slot_was_set: ${slotText(event.name, event.value)}` : NO_SLOT}`, `+ ${expected}`];
  }
  if (passed) {
    const event = take(slots, (candidate) => slotMatches(slot, candidate));
    const value =
      event && event.value !== null && event.value !== undefined
        ? `: ${pyStr(event.value)} (${pyTypeName(event.value)})`
        : '';
    return [`  slot_was_set: ${slot.name}${value}`];
  }
  const expected = slot.hasValue
    ? `slot_was_set: ${slotText(slot.name, slot.value)}`
    : `slot_was_set: ${slot.name}`;
  const event = take(slots, (candidate) => candidate.name === slot.name);
  return [`- ${event ? `slot_was_set: ${slotText(event.name, event.value)}` : NO_SLOT}`, `+ ${expected}`];
}

import type { BotUttered, Event, SlotSet } from '../core/events/types.js';
import type {
  BotUtteranceAssertion,
  E2EAssertion,
  ExpectedButton,
  FlowEndAssertion,
  FlowStartedAssertion,
  PatternClarificationAssertion,
  SlotAssertion,
} from './e2e-model.js';
import { pyEquals, pyStr } from './python-values.js';

const CLARIFICATION_PATTERN = 'pattern_clarification';

/**
 * The result of one assertion against the events of a user turn. `matched` is the event that satisfied
 * it, where one did: with assertion order enabled, the next assertion only sees the events after it.
 */
export type AssertionOutcome =
  | { readonly passed: true; readonly matched?: Event }
  | { readonly passed: false; readonly message: string; readonly line: number };

const pass = (matched?: Event): AssertionOutcome => (matched ? { passed: true, matched } : { passed: true });

/** Checks one assertion; messages follow Rasa's wording. */
export function checkAssertion(assertion: E2EAssertion, events: readonly Event[]): AssertionOutcome {
  const fail = (message: string, line = assertion.line): AssertionOutcome => ({
    passed: false,
    message,
    line,
  });
  switch (assertion.type) {
    case 'flow_started':
      return checkFlowStarted(assertion, events, fail);
    case 'flow_completed':
    case 'flow_cancelled':
      return checkFlowEnd(assertion, events, fail);
    case 'pattern_clarification_contains':
      return checkClarification(assertion, events, fail);
    case 'action_executed': {
      const matched = events.find((event) => event.event === 'action' && event.name === assertion.actionName);
      return matched ? pass(matched) : fail(`Action '${assertion.actionName}' did not execute.`);
    }
    case 'slot_was_set':
      return checkSlotWasSet(assertion, events, fail);
    case 'slot_was_not_set':
      return checkSlotWasNotSet(assertion, events, fail);
    case 'bot_uttered':
      return checkBotUttered(assertion, events, fail);
    case 'bot_did_not_utter':
      return checkBotDidNotUtter(assertion, events, fail);
    case 'generative_response_is_relevant':
    case 'generative_response_is_grounded':
      return fail(
        `'${assertion.type}' needs an LLM judge to score the generated response, and this runner has none: ` +
          'the assertion cannot pass.',
      );
  }
}

type Fail = (message: string, line?: number) => AssertionOutcome;

function flowStarted(events: readonly Event[], flowId: string): Event | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === flowId);
}

function checkFlowStarted(
  assertion: FlowStartedAssertion,
  events: readonly Event[],
  fail: Fail,
): AssertionOutcome {
  if (assertion.flowId !== undefined) {
    const matched = flowStarted(events, assertion.flowId);
    return matched ? pass(matched) : fail(`Flow with id '${assertion.flowId}' did not start.`);
  }
  if (assertion.operator === 'all') {
    const missing = assertion.flowIds.filter((flowId) => !flowStarted(events, flowId));
    if (missing.length > 0) return fail(`Flow with id '${missing.join("', '")}' did not start.`);
    return pass(assertion.flowIds.map((flowId) => flowStarted(events, flowId)).at(-1));
  }
  for (const flowId of assertion.flowIds) {
    const matched = flowStarted(events, flowId);
    if (matched) return pass(matched);
  }
  return fail(`None of the flows with ids '${assertion.flowIds.join(', ')}' started.`);
}

function checkFlowEnd(assertion: FlowEndAssertion, events: readonly Event[], fail: Fail): AssertionOutcome {
  const matched = events.find(
    (event): event is Extract<Event, { event: FlowEndAssertion['type'] }> =>
      event.event === assertion.type && event.flow_id === assertion.flowId,
  );
  const verb = assertion.type === 'flow_completed' ? 'did not complete' : 'was not cancelled';
  if (!matched) return fail(`Flow with id '${assertion.flowId}' ${verb}.`);
  if (assertion.flowStepId !== undefined && matched.step_id !== assertion.flowStepId) {
    return fail(
      `Flow with id '${assertion.flowId}' ${verb} at expected step id '${assertion.flowStepId}'. ` +
        `The actual step id was '${matched.step_id}'.`,
    );
  }
  return pass(matched);
}

function checkClarification(
  assertion: PatternClarificationAssertion,
  events: readonly Event[],
  fail: Fail,
): AssertionOutcome {
  const matched = flowStarted(events, CLARIFICATION_PATTERN);
  if (!matched) return fail(`'${CLARIFICATION_PATTERN}' pattern did not trigger.`);
  const stringsAt = (key: string): Set<string> => {
    const value = matched.metadata?.[key];
    return new Set(Array.isArray(value) ? value.map(String) : []);
  };
  if (assertion.operator === undefined) {
    const names = stringsAt('names');
    const sameSet =
      names.size === new Set(assertion.flowNames).size &&
      assertion.flowNames.every((name) => names.has(name));
    if (sameSet) return pass(matched);
    return fail(
      `'${CLARIFICATION_PATTERN}' pattern did not contain the expected options. ` +
        `Expected options: ${assertion.flowNames.join(', ')}.`,
    );
  }
  const actual = stringsAt('clarification_ids');
  if (assertion.operator === 'all') {
    const sameSet =
      actual.size === new Set(assertion.flowIds).size && assertion.flowIds.every((id) => actual.has(id));
    if (sameSet) return pass(matched);
    return fail(
      `'${CLARIFICATION_PATTERN}' pattern did not contain all of the expected options ` +
        `'${assertion.flowIds.join(', ')}'. Actual options: '${[...actual].join(', ')}'.`,
    );
  }
  if (assertion.flowIds.some((id) => actual.has(id))) return pass(matched);
  return fail(
    `'${CLARIFICATION_PATTERN}' pattern did not contain any of the expected options '${assertion.flowIds.join(', ')}'.`,
  );
}

function slotEvents(events: readonly Event[], name: string): SlotSet[] {
  return events.filter((event): event is SlotSet => event.event === 'slot' && event.name === name);
}

function checkSlotWasSet(assertion: SlotAssertion, events: readonly Event[], fail: Fail): AssertionOutcome {
  let matched: Event | undefined;
  for (const slot of assertion.slots) {
    const candidates = slotEvents(events, slot.name);
    if (candidates.length === 0) return fail(`Slot '${slot.name}' was not set.`, slot.line);
    if (!slot.hasValue) {
      matched = candidates[0];
      continue;
    }
    matched = candidates.find((event) => pyEquals(event.value, slot.value));
    if (!matched) {
      return fail(
        `Slot '${slot.name}' was set to a different value '${pyStr(candidates.at(-1)?.value)}' ` +
          `than the expected '${pyStr(slot.value)}' value.`,
        slot.line,
      );
    }
  }
  return pass(matched);
}

function checkSlotWasNotSet(
  assertion: SlotAssertion,
  events: readonly Event[],
  fail: Fail,
): AssertionOutcome {
  for (const slot of assertion.slots) {
    // the last event is the value the slot holds at the end of the turn
    const last = slotEvents(events, slot.name).at(-1);
    if (!last) continue;
    if (!slot.hasValue && last.value !== null && last.value !== undefined) {
      return fail(
        `Slot '${slot.name}' was set to '${pyStr(last.value)}' but it should not have been set.`,
        slot.line,
      );
    }
    if (slot.hasValue && pyEquals(last.value, slot.value)) {
      return fail(
        `Slot '${slot.name}' was set to '${pyStr(slot.value)}' but it should not have been set.`,
        slot.line,
      );
    }
  }
  return pass();
}

function botEvents(events: readonly Event[]): BotUttered[] {
  return events.filter((event): event is BotUttered => event.event === 'bot');
}

const utterActionOf = (event: BotUttered): unknown => event.metadata?.utter_action;

function textPattern(source: string, fail: Fail): RegExp | AssertionOutcome {
  try {
    return new RegExp(source);
  } catch (error) {
    return fail(
      `The text_matches pattern '${source}' is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

const sameButton = (actual: { title?: unknown; payload?: unknown }, expected: ExpectedButton): boolean =>
  actual.title === expected.title && (actual.payload ?? undefined) === expected.payload;

/** Each given property must be met by some bot message of the turn (not necessarily the same one). */
function checkBotUttered(
  assertion: BotUtteranceAssertion,
  events: readonly Event[],
  fail: Fail,
): AssertionOutcome {
  const bots = botEvents(events);
  const errors: string[] = [];
  let matched: Event | undefined;
  const look = (found: BotUttered | undefined, error: string): void => {
    if (found) matched = found;
    else errors.push(error);
  };
  if (assertion.utterName !== undefined) {
    const found = bots.find((event) => utterActionOf(event) === assertion.utterName);
    look(found, `Bot did not utter '${assertion.utterName}' response.`);
  }
  if (assertion.textMatches !== undefined) {
    const pattern = textPattern(assertion.textMatches, fail);
    if (!(pattern instanceof RegExp)) return pattern;
    const found = bots.find((event) => pattern.test(event.text ?? ''));
    look(
      found,
      `Bot did not utter any response which matches the provided text pattern '${assertion.textMatches}'.`,
    );
  }
  if (assertion.buttons.length > 0) {
    const found = bots.find((event) => {
      const actual = event.data.buttons ?? [];
      return (
        actual.length === assertion.buttons.length &&
        assertion.buttons.every((expected, index) => sameButton(actual[index] ?? {}, expected))
      );
    });
    look(found, 'Bot did not utter any response with the expected buttons.');
  }
  return errors.length > 0 ? fail(errors.join(' ')) : pass(matched);
}

function checkBotDidNotUtter(
  assertion: BotUtteranceAssertion,
  events: readonly Event[],
  fail: Fail,
): AssertionOutcome {
  const pattern = assertion.textMatches === undefined ? undefined : textPattern(assertion.textMatches, fail);
  if (pattern !== undefined && !(pattern instanceof RegExp)) return pattern;
  for (const event of botEvents(events)) {
    const errors: string[] = [];
    if (assertion.utterName !== undefined && utterActionOf(event) === assertion.utterName) {
      errors.push(`Bot uttered a forbidden utterance '${assertion.utterName}'.`);
    }
    if (pattern && pattern.test(event.text ?? '')) {
      errors.push(`Bot uttered a forbidden message matching the pattern '${assertion.textMatches}'.`);
    }
    const buttons = event.data.buttons ?? [];
    if (buttons.some((button) => assertion.buttons.some((forbidden) => sameButton(button, forbidden)))) {
      errors.push('Bot uttered a forbidden response with specified buttons.');
    }
    if (errors.length > 0) return fail(errors.join(' '));
  }
  return pass();
}

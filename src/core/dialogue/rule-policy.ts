/**
 * Rasa's RulePolicy over the project's rules: each action of a rule is predicted when the rule's states
 * up to it match the end of the conversation's states, a rule state matching when everything it names
 * is so in the conversation (intent, entities, previous action, the slots and active loop it mentions;
 * NOT_SET: must be unset). The longest matching rule wins. A rule ends by predicting action_listen unless
 * `wait_for_user_input: false`; `conversation_start: true` rules match only from the conversation start.
 * Forms (active loops) are not run by Parley: their rules match only on the loop events stories give.
 */
import type { Domain } from '../domain/types.js';
import { ACTION_LISTEN } from './dialogue-events.js';
import type { DialogueEvent } from './dialogue-events.js';
import { NOT_SET, statesBeforeActions, stateKey } from './states.js';
import type { DialogueState } from './states.js';
import { eventsOfSteps, expandOr } from './stitch.js';
import type { Rule, StoryStep } from './types.js';

/** Rasa's default rules: the default intents run their actions (which decide what comes next). */
const DEFAULT_RULES: readonly Rule[] = [
  ['restart', 'action_restart'],
  ['back', 'action_back'],
  ['session_start', 'action_session_start'],
].map(([intent, action]) => ({
  name: `default: ${intent}`,
  steps: [
    { kind: 'intent', intent: intent as string, entities: [] },
    { kind: 'action', action: action as string },
  ],
  condition: [],
  conversationStart: false,
  waitForUserInput: false,
}));

interface RuleSample {
  readonly rule: string;
  /** the rule's states up to the action, from the state after its first step */
  readonly states: readonly DialogueState[];
  readonly conversationStart: boolean;
  readonly action: string;
  /** the rule ends by listening (`wait_for_user_input`) */
  readonly waits: boolean;
  /** for the longest-rule choice: the number of features the states name */
  readonly weight: number;
}

export interface RulePrediction {
  readonly action: string;
  readonly rule: string;
  readonly waits: boolean;
}

export class RulePolicy {
  private readonly samples: readonly RuleSample[];

  constructor(rules: readonly Rule[], domain: Domain) {
    this.samples = [...rules, ...DEFAULT_RULES].flatMap((rule) => ruleSamples(rule, domain));
  }

  predict(states: readonly DialogueState[]): RulePrediction | undefined {
    let best: RuleSample | undefined;
    for (const sample of this.samples) {
      if (!matches(sample, states)) continue;
      if (!best || sample.weight > best.weight) best = sample;
    }
    return best ? { action: best.action, rule: best.rule, waits: best.waits } : undefined;
  }
}

function ruleSamples(rule: Rule, domain: Domain): RuleSample[] {
  return expandOr(rule.steps).flatMap((steps) => {
    const events: DialogueEvent[] = [...conditionEvents(rule.condition), ...eventsOfSteps(steps)];
    if (rule.waitForUserInput && events.at(-1)?.type !== 'user')
      events.push({ type: 'action', name: ACTION_LISTEN });
    const named = new Set(events.flatMap((event) => (event.type === 'slot' ? [event.name] : [])));
    const { samples } = statesBeforeActions(events, {
      domain,
      initial: {},
      featurized: (name) => named.has(name),
      markUnset: true,
    });
    // the rule's first action event is what it reacts to, never a prediction: the listen before its
    // leading message, or its leading action
    return samples.slice(1).map((sample) => {
      const window = rule.conversationStart ? sample.states : sample.states.slice(1);
      return {
        rule: rule.name,
        states: window,
        conversationStart: rule.conversationStart,
        action: sample.action,
        waits: rule.waitForUserInput,
        weight: window.reduce((sum, state) => sum + stateKey(state).length, 0),
      };
    });
  });
}

/** Condition steps are slot and loop events before the rule's first step. */
function conditionEvents(condition: readonly StoryStep[]): DialogueEvent[] {
  return eventsOfSteps(condition).filter((event) => event.type !== 'action');
}

function matches(sample: RuleSample, states: readonly DialogueState[]): boolean {
  if (sample.conversationStart && states.length !== sample.states.length) return false;
  if (states.length < sample.states.length) return false;
  const offset = states.length - sample.states.length;
  return sample.states.every((ruleState, index) =>
    stateMatches(ruleState, states[offset + index] as DialogueState),
  );
}

function stateMatches(rule: DialogueState, live: DialogueState): boolean {
  if (rule.intent !== undefined && rule.intent !== live.intent) return false;
  if (rule.entities && !rule.entities.every((entity) => live.entities?.includes(entity))) return false;
  if (rule.prevAction !== undefined && rule.prevAction !== live.prevAction) return false;
  if (!featureMatches(rule.activeLoop, live.activeLoop)) return false;
  return Object.entries(rule.slots).every(([name, feature]) => featureMatches(feature, live.slots[name]));
}

function featureMatches(rule: string | undefined, live: string | undefined): boolean {
  if (rule === undefined) return true;
  return rule === NOT_SET ? live === undefined : rule === live;
}

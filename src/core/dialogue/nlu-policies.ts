/**
 * The NLU-based dialogue policies Parley runs in coexistence, for sessions routed away from CALM:
 * RulePolicy (rules, priority 6) and MemoizationPolicy (stories, priority 3) as in Rasa; TEDPolicy is
 * replaced by them. When neither predicts, the turn never ends in silence: right after a user message
 * RulePolicy's fallback action runs (`core_fallback_action_name`, default action_default_fallback, at
 * `core_fallback_threshold`); after an action of the bot the assistant listens.
 */
import type { ComponentConfig } from '../assistant.js';
import type { Domain } from '../domain/types.js';
import type { Event } from '../events/types.js';
import { ACTION_LISTEN, dialogueEventsOf } from './dialogue-events.js';
import type { DialogueEvent } from './dialogue-events.js';
import { DEFAULT_MAX_HISTORY, MemoizationPolicy } from './memoization.js';
import { RulePolicy } from './rule-policy.js';
import { influences, initialFeatures, statesBeforeActions } from './states.js';
import type { DialogueState } from './states.js';
import type { DialogueData } from './types.js';

export interface NluPolicyConfig {
  readonly maxHistory: number;
  readonly fallbackAction: string;
  readonly fallbackThreshold: number;
  readonly fallbackPrediction: boolean;
}

export interface NluPolicyPrediction {
  readonly action: string;
  readonly policy: 'RulePolicy' | 'MemoizationPolicy';
  readonly confidence: number;
  /** the rule that matched, for the logs */
  readonly rule?: string;
  /** a rule predicted what the stories would not: the turn is hidden from MemoizationPolicy (Rasa) */
  readonly hideRuleTurn?: boolean;
}

/** The policies' settings from config.yml (`policies:`), with Rasa's defaults. */
export function nluPolicyConfig(policies: readonly ComponentConfig[]): NluPolicyConfig {
  const rule = policies.find((policy) => policy.name === 'RulePolicy')?.options ?? {};
  const memo =
    policies.find(
      (policy) => policy.name === 'MemoizationPolicy' || policy.name === 'AugmentedMemoizationPolicy',
    )?.options ?? {};
  const number = (value: unknown, fallback: number): number =>
    Number.isFinite(value) ? Number(value) : fallback;
  return {
    maxHistory: Math.trunc(number(memo['max_history'], DEFAULT_MAX_HISTORY)),
    fallbackAction:
      typeof rule['core_fallback_action_name'] === 'string'
        ? rule['core_fallback_action_name']
        : 'action_default_fallback',
    fallbackThreshold: number(rule['core_fallback_threshold'], 0.3),
    fallbackPrediction: rule['enable_fallback_prediction'] !== false,
  };
}

export class NluPolicies {
  private readonly rules: RulePolicy;
  private readonly memoization: MemoizationPolicy;
  private readonly domain: Domain;
  private readonly config: NluPolicyConfig;

  constructor(options: { data: DialogueData; domain: Domain; config: NluPolicyConfig }) {
    this.domain = options.domain;
    this.config = options.config;
    this.rules = new RulePolicy(options.data.rules, options.domain);
    this.memoization = new MemoizationPolicy(options.data.stories, options.domain, options.config.maxHistory);
  }

  /** The next action after the conversation's events (its whole log; only the latest session counts). */
  predict(events: readonly Event[], sharedSlots: readonly string[]): NluPolicyPrediction {
    const dialogue = dialogueEventsOf(events, sharedSlots);
    const states = this.states(dialogue);
    const remembered = this.memoization.predict(
      this.states(dialogueEventsOf(events, sharedSlots, { hideRuleTurns: true })),
    );
    const rule = this.rules.predict(states);
    if (rule) {
      // a turn a rule handles to its end, where the stories would not act so, is the rules' alone
      const hideRuleTurn = rule.waits && remembered !== rule.action;
      return { action: rule.action, policy: 'RulePolicy', confidence: 1, rule: rule.rule, hideRuleTurn };
    }
    if (remembered) return { action: remembered, policy: 'MemoizationPolicy', confidence: 1 };
    const afterUser =
      dialogue.findLast((event) => event.type === 'user' || event.type === 'action')?.type === 'user';
    if (afterUser && this.config.fallbackPrediction)
      return {
        action: this.config.fallbackAction,
        policy: 'RulePolicy',
        confidence: this.config.fallbackThreshold,
      };
    return { action: ACTION_LISTEN, policy: 'RulePolicy', confidence: 1 };
  }

  private states(events: readonly DialogueEvent[]): DialogueState[] {
    const options = {
      domain: this.domain,
      initial: initialFeatures(this.domain),
      featurized: influences(this.domain),
    };
    return statesBeforeActions(events, options).final;
  }
}

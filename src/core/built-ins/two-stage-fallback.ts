import { appliedEvents } from '../events/applied-events.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { ActionExecuted, Event, UnstampedEvent, UserUttered } from '../events/types.js';
import {
  ASK_AFFIRMATION,
  ASK_REPHRASE,
  DEFAULT_FALLBACK,
  NLU_FALLBACK_INTENT,
  OUT_OF_SCOPE_INTENT,
} from './fallback.js';
import type { ActionEffect, HistoryBuiltInAction } from './types.js';
import { eventEffect, runEffect } from './types.js';

const TWO_STAGE_FALLBACK = 'action_two_stage_fallback';
const ACTION_LISTEN = 'action_listen';

/**
 * action_two_stage_fallback, Rasa's loop action for low-confidence NLU (FallbackClassifier's
 * `nlu_fallback`): activates itself as the active loop; asks the user to affirm the intent (on
 * activation, or after another `nlu_fallback`), otherwise to rephrase. It is done when the latest intent
 * is neither `nlu_fallback` nor `out_of_scope` (the user clarified: the clarifying message replaces the
 * fallback turn), or after two fallbacks in a row or a second denied affirmation (give up:
 * action_default_fallback). The asking and giving up run the actions of those names, so a project's
 * override of them is used, as in Rasa.
 */
export const actionTwoStageFallback: HistoryBuiltInAction = (state, _context, history) => {
  const effects: ActionEffect[] = [];
  const activatedNow = state.activeLoop !== TWO_STAGE_FALLBACK;
  if (activatedNow) effects.push(eventEffect({ event: 'active_loop', name: TWO_STAGE_FALLBACK }));
  const afterRestart = eventsAfterRestart(history);
  const giveUp = twoFallbacksInARow(afterRestart) || secondAffirmationFailed(afterRestart);
  const done = userClarified(state) || giveUp;
  if (!done) {
    const affirm = activatedNow || latestIntent(state) === NLU_FALLBACK_INTENT;
    return [...effects, runEffect(affirm ? ASK_AFFIRMATION : ASK_REPHRASE)];
  }
  effects.push(eventEffect({ event: 'active_loop', name: null }));
  if (giveUp) return [...effects, runEffect(DEFAULT_FALLBACK)];
  const clarification = state.latestMessage;
  return [
    ...effects,
    eventEffect({ event: 'rewind' }),
    eventEffect({ event: 'action', name: ACTION_LISTEN }),
    ...(clarification ? [eventEffect(withFullConfidence(clarification))] : []),
  ];
};

/**
 * action_revert_fallback_events (from Rasa's deprecated TwoStageFallbackPolicy): after a successful
 * rephrasing or affirmation, takes back the fallback turns and replays the user message that counts.
 */
export const actionRevertFallbackEvents: HistoryBuiltInAction = (_state, _context, history) => {
  const applied = appliedEvents(history);
  const lastUser = applied.findLast((event): event is UserUttered => event.event === 'user');
  if (!lastUser) return [];
  if (lastExecutedActionHas(applied, ASK_REPHRASE))
    return [...revertRephrasing(), eventEffect(withoutTimestamp(lastUser))].map(toEffect);
  if (!lastExecutedActionHas(applied, ASK_AFFIRMATION)) return [];
  const reverted: (ActionEffect | UnstampedEvent)[] = [
    { event: 'rewind' },
    { event: 'rewind' },
    { event: 'action', name: ACTION_LISTEN },
  ];
  if (lastExecutedActionHas(applied, ASK_REPHRASE, 1)) reverted.push(...revertRephrasing());
  reverted.push(withFullConfidence(lastUser));
  return reverted.map(toEffect);
};

function revertRephrasing(): UnstampedEvent[] {
  return [
    { event: 'rewind' },
    { event: 'rewind' },
    { event: 'rewind' },
    { event: 'action', name: ACTION_LISTEN },
  ];
}

function toEffect(item: ActionEffect | UnstampedEvent): ActionEffect {
  return 'kind' in item ? item : eventEffect(item);
}

function latestIntent(state: TrackerState): string | null {
  return state.latestMessage?.parse_data.intent.name ?? null;
}

function userClarified(state: TrackerState): boolean {
  const intent = latestIntent(state);
  return intent !== NLU_FALLBACK_INTENT && intent !== OUT_OF_SCOPE_INTENT;
}

function twoFallbacksInARow(events: readonly Event[]): boolean {
  return sameList(lastIntentNames(events, 2), [NLU_FALLBACK_INTENT, NLU_FALLBACK_INTENT]);
}

function secondAffirmationFailed(events: readonly Event[]): boolean {
  return sameList(lastIntentNames(events, 3), [
    OUT_OF_SCOPE_INTENT,
    NLU_FALLBACK_INTENT,
    OUT_OF_SCOPE_INTENT,
  ]);
}

/** Rasa's `_last_n_intent_names`: of the last n user messages and reverts, the intents of the messages. */
function lastIntentNames(events: readonly Event[], count: number): (string | null)[] {
  return events
    .filter((event) => event.event === 'user' || event.event === 'rewind')
    .slice(-count)
    .reverse()
    .flatMap((event) => (event.event === 'user' ? [event.parse_data.intent.name] : []));
}

function sameList(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** The events after the latest `restart` (Rasa's AFTER_RESTART verbosity: reverted events included). */
function eventsAfterRestart(events: readonly Event[]): readonly Event[] {
  return events.slice(events.findLastIndex((event) => event.event === 'restart') + 1);
}

/** Rasa's `last_executed_action_has(name, skip)`: the (skip+1)-th latest action other than action_listen. */
function lastExecutedActionHas(applied: readonly Event[], name: string, skip = 0): boolean {
  const actions = applied.filter(
    (event): event is ActionExecuted => event.event === 'action' && event.name !== ACTION_LISTEN,
  );
  return actions.at(-1 - skip)?.name === name;
}

function withoutTimestamp(message: UserUttered): UnstampedEvent {
  const { timestamp: _timestamp, ...rest } = message;
  return rest;
}

/** The message again, its intent now certain (the runtime stamps it with the current time). */
function withFullConfidence(message: UserUttered): UnstampedEvent {
  const { timestamp: _timestamp, ...rest } = message;
  const intent = { ...rest.parse_data.intent, confidence: 1 };
  return { ...rest, parse_data: { ...rest.parse_data, intent } };
}

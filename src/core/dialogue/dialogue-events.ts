/**
 * The events the NLU-based policies read: user intents, actions, slots and active loops, as Rasa's
 * `applied_events(featurization_for_policies=True)` gives them: from the latest session start or restart,
 * with reverted turns taken out, and after a routing session ended only the shared slots' events kept.
 * For MemoizationPolicy (`hideRuleTurns`), a turn whose actions a rule alone predicted (`hide_rule_turn`)
 * is left out as well — its message and actions, not the slots it set — as Rasa hides rule-only turns
 * from the policies that learn from stories.
 */
import type { Event } from '../events/types.js';

export type DialogueEvent =
  | { readonly type: 'user'; readonly intent: string | null; readonly entities: readonly string[] }
  | { readonly type: 'action'; readonly name: string }
  | { readonly type: 'slot'; readonly name: string; readonly value: unknown }
  | { readonly type: 'loop'; readonly name: string | null };

export const ACTION_LISTEN = 'action_listen';

export function dialogueEventsOf(
  events: readonly Event[],
  sharedSlots: readonly string[],
  options: { readonly hideRuleTurns?: boolean } = {},
): DialogueEvent[] {
  let applied: DialogueEvent[] = [];
  let hiding = false;
  for (const event of events) {
    if (event.event === 'user') hiding = false;
    if (event.event === 'action' && event.hide_rule_turn === true && options.hideRuleTurns) {
      if (!hiding) applied = withoutLatestTurn(applied);
      hiding = true;
      continue;
    }
    switch (event.event) {
      case 'session_started':
      case 'restart':
        applied = [];
        break;
      case 'routing_session_ended':
        applied = applied.filter((kept) => kept.type === 'slot' && sharedSlots.includes(kept.name));
        break;
      case 'rewind':
        undoTill(applied, 'user');
        undoTill(applied, 'action');
        break;
      case 'undo':
        undoTill(applied, 'action');
        break;
      case 'user':
        applied.push(userEvent(event.parse_data.intent.name ?? null, event.parse_data.entities));
        break;
      case 'action':
        if (event.name) applied.push({ type: 'action', name: event.name });
        break;
      case 'slot':
        applied.push({ type: 'slot', name: event.name, value: event.value });
        break;
      case 'active_loop':
        applied.push({ type: 'loop', name: event.name });
        break;
      default:
        break;
    }
  }
  return withListens(applied);
}

export function userEvent(
  intent: string | null,
  entities: readonly { readonly entity: string }[],
): DialogueEvent {
  const names = [...new Set(entities.map((entity) => entity.entity))].sort();
  return { type: 'user', intent, entities: names };
}

/** Every user message follows an action_listen (Parley's log does not always show one, Rasa's does). */
export function withListens(events: readonly DialogueEvent[]): DialogueEvent[] {
  const result: DialogueEvent[] = [];
  let lastAction: string | undefined;
  for (const event of events) {
    if (event.type === 'user' && lastAction !== ACTION_LISTEN)
      result.push({ type: 'action', name: ACTION_LISTEN });
    if (event.type === 'action') lastAction = event.name;
    if (event.type === 'user') lastAction = undefined;
    result.push(event);
  }
  return result;
}

/** The events without the latest user message and the actions after it; slot and loop events stay. */
function withoutLatestTurn(events: readonly DialogueEvent[]): DialogueEvent[] {
  const user = events.map((event) => event.type).lastIndexOf('user');
  if (user < 0) return [...events];
  const kept = events.slice(user + 1).filter((event) => event.type === 'slot' || event.type === 'loop');
  return [...events.slice(0, user), ...kept];
}

function undoTill(events: DialogueEvent[], type: DialogueEvent['type']): void {
  while (events.length > 0) {
    const removed = events.pop();
    if (removed?.type === type) return;
  }
}

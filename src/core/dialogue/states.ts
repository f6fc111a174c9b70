/**
 * Rasa's dialogue states: before every action, what the policies see of the conversation — the latest
 * user intent and entity names, the previous action, the slots that influence the conversation
 * (featurized as Rasa does: set or not for text, the value for bool and categorical), the active loop.
 */
import type { Domain, Slot } from '../domain/types.js';
import type { DialogueEvent } from './dialogue-events.js';

export interface DialogueState {
  readonly intent?: string;
  readonly entities?: readonly string[];
  readonly prevAction?: string;
  readonly slots: Readonly<Record<string, string>>;
  readonly activeLoop?: string;
}

/** A slot whose value a rule requires unset (`slot_was_set: - x: null`, `active_loop: null`). */
export const NOT_SET = '<not set>';

/** What a slot value looks like to the policies; undefined for an unset slot. */
export function slotFeature(slot: Slot | undefined, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (slot?.type) {
    case 'bool':
      return String(value === true || String(value).toLowerCase() === 'true');
    case 'categorical': {
      const text = String(value).toLowerCase();
      return slot.values.some((allowed) => allowed.toLowerCase() === text) ? text : '__other__';
    }
    case 'float':
      return String(Number(value));
    case 'list':
      return Array.isArray(value) && value.length === 0 ? undefined : 'set';
    default:
      return 'set';
  }
}

export interface StateOptions {
  readonly domain: Domain;
  /** features of the slots at the start (the domain's initial values, or a rule's condition) */
  readonly initial: Readonly<Record<string, string>>;
  /** which slots are featurized: all that influence the conversation, or only those a rule names */
  readonly featurized: (name: string) => boolean;
  /** rules: an unset slot is remembered as NOT_SET (the rule requires it unset), not dropped */
  readonly markUnset?: boolean;
}

/**
 * The state before each action of the events (Rasa's `generate_all_prior_trackers`), paired with that
 * action, and the state after the last event.
 */
export function statesBeforeActions(
  events: readonly DialogueEvent[],
  options: StateOptions,
): { samples: { states: DialogueState[]; action: string }[]; final: DialogueState[] } {
  let current: Mutable = { slots: { ...options.initial } };
  const states: DialogueState[] = [];
  const samples: { states: DialogueState[]; action: string }[] = [];
  for (const event of events) {
    if (event.type === 'action') {
      states.push(freeze(current));
      samples.push({ states: [...states], action: event.name });
      current = { ...current, prevAction: event.name };
    } else current = apply(current, event, options);
  }
  return { samples, final: [...states, freeze(current)] };
}

type Mutable = { -readonly [K in keyof DialogueState]: DialogueState[K] } & { slots: Record<string, string> };

function apply(state: Mutable, event: DialogueEvent, options: StateOptions): Mutable {
  switch (event.type) {
    case 'user': {
      const { intent: _intent, entities: _entities, ...rest } = state;
      return {
        ...rest,
        ...(event.intent ? { intent: event.intent } : {}),
        ...(event.entities.length > 0 ? { entities: event.entities } : {}),
      };
    }
    case 'slot': {
      if (!options.featurized(event.name)) return state;
      const slots = { ...state.slots };
      const feature = slotFeature(options.domain.slots.get(event.name), event.value);
      if (feature !== undefined) slots[event.name] = feature;
      else if (options.markUnset) slots[event.name] = NOT_SET;
      else delete slots[event.name];
      return { ...state, slots };
    }
    case 'loop': {
      const { activeLoop: _loop, ...rest } = state;
      if (event.name) return { ...rest, activeLoop: event.name };
      return options.markUnset ? { ...rest, activeLoop: NOT_SET } : rest;
    }
    default:
      return state;
  }
}

function freeze(state: Mutable): DialogueState {
  return { ...state, slots: { ...state.slots } };
}

/** One string per state, equal for equal states (slots in name order). */
export function stateKey(state: DialogueState): string {
  const slots = Object.keys(state.slots)
    .sort()
    .map((name) => [name, state.slots[name]]);
  return JSON.stringify([
    state.intent ?? null,
    state.entities ?? [],
    state.prevAction ?? null,
    slots,
    state.activeLoop ?? null,
  ]);
}

/** The domain's slots that influence the conversation, with their initial values featurized. */
export function initialFeatures(domain: Domain): Record<string, string> {
  const features: Record<string, string> = {};
  for (const slot of domain.slots.values()) {
    if (!slot.influenceConversation) continue;
    const feature = slotFeature(slot, slot.initialValue);
    if (feature !== undefined) features[slot.name] = feature;
  }
  return features;
}

export function influences(domain: Domain): (name: string) => boolean {
  return (name) => domain.slots.get(name)?.influenceConversation === true;
}

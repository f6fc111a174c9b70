/**
 * Slots Rasa keeps for every assistant without the domain declaring them: its DEFAULT_SLOT_NAMES
 * (`requested_slot`, `session_started_metadata`, `flow_hashes`, `mocked_datetime`), the `language` slot of
 * multi-language assistants, coexistence's `route_session_to_calm`, and `dialogue_stack`, where Rasa 3.7
 * kept the stack. (The default patterns' slots, `confirm_correction` and the others, are in the domain
 * already: default-patterns.yml declares them.) A project may read them in conditions (`slots.language`)
 * and responses, and set them in `set_slots` steps, except `dialogue_stack`, which Rasa's validator
 * refuses in a collect or set_slots step.
 */
export const BUILT_IN_SLOTS: ReadonlySet<string> = new Set([
  'requested_slot',
  'session_started_metadata',
  'flow_hashes',
  'mocked_datetime',
  'language',
  'route_session_to_calm',
  'dialogue_stack',
]);

/** The built-in slot no flow step may collect or set. */
export const RESERVED_SLOT = 'dialogue_stack';

export function isBuiltInSlot(name: string): boolean {
  return BUILT_IN_SLOTS.has(name);
}

/** `dialogue_stack` aside, Rasa's domain holds every built-in slot, so an unset one reads as None. */
const NULL_BUILT_IN_SLOTS: Readonly<Record<string, null>> = Object.fromEntries(
  [...BUILT_IN_SLOTS].filter((name) => name !== RESERVED_SLOT).map((name) => [name, null]),
);

/** The slots as Rasa's conditions and responses see them: unset built-in slots are null, not missing. */
export function withBuiltInSlots(
  slots: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  for (const name of Object.keys(NULL_BUILT_IN_SLOTS)) {
    if (!Object.hasOwn(slots, name)) return { ...NULL_BUILT_IN_SLOTS, ...slots };
  }
  return slots;
}

const NAMES_A_BUILT_IN_SLOT = new RegExp(`\\b(?:${[...BUILT_IN_SLOTS].join('|')})\\b`);

/**
 * The slots a condition or template needs: the view with unset built-in slots as null only when its
 * text names one. Most texts name none, and the view of a changed slot record is a copy of it.
 */
export function slotsFor(
  text: string,
  slots: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return NAMES_A_BUILT_IN_SLOT.test(text) ? withBuiltInSlots(slots) : slots;
}

/**
 * Slots of the engine's machinery rather than of the assistant's business: the built-in slots, the
 * value an action returns (`return_value`) and the default patterns' own slots. Rasa leaves them out of
 * what it shows of a conversation's data (the search prompt; for A2A, what a calling agent receives).
 */
export const ENGINE_SLOTS: ReadonlySet<string> = new Set([
  ...BUILT_IN_SLOTS,
  'return_value',
  'interrupted_flow_to_continue',
  'continue_interrupted_flow_confirmation',
  'confirm_correction',
  'silence_timeout',
  'consecutive_silence_timeouts',
  'max_clarification_options',
  'continue_conversation',
  'csat_score',
]);

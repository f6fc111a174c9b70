import { PYTHON_SPACE, pythonStrip } from '../text/python-space.js';

/**
 * Rasa's direct payloads, typed by buttons and tests instead of free text:
 * `/SetSlots(a=1, b=x)`, `/intent`, `/intent{"entity": "value"}` and `/intent@0.8{...}`.
 */
export type DirectPayload =
  | {
      readonly kind: 'set_slots';
      readonly slots: readonly { readonly name: string; readonly value: string }[];
    }
  | {
      readonly kind: 'intent';
      readonly intent: string;
      readonly confidence: number;
      readonly entities: readonly { readonly entity: string; readonly value: unknown }[];
    }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Rasa reads at most this many slots from one `/SetSlots(...)` payload; it counts the `=` signs of the
 * whole text, so a value holding `=` counts too (see exceedsSlotLimit).
 */
export const MAX_SLOTS_PER_PAYLOAD = 10;

/** Rasa's CommandPayloadReader.is_above_slot_limit: more `=` signs than slots allowed, wherever they are. */
export function exceedsSlotLimit(text: string): boolean {
  return text.split('=').length - 1 > MAX_SLOTS_PER_PAYLOAD;
}

/**
 * The payload Rasa acts on, or undefined when it reads the text as a message: not a payload, one it
 * cannot parse, or a `/SetSlots` over the slot limit or naming a slot the domain lacks (then it sets
 * none of them).
 */
export function readDirectPayload(
  text: string,
  slots: { has(name: string): boolean },
): Exclude<DirectPayload, { kind: 'invalid' }> | undefined {
  const payload = parseDirectPayload(text);
  if (!payload || payload.kind === 'invalid') return undefined;
  if (payload.kind === 'intent') return payload;
  if (exceedsSlotLimit(text) || payload.slots.some((slot) => !slots.has(slot.name))) return undefined;
  return payload;
}

const LEADING_SLASHES_AND_SPACE = new RegExp(`^[/${PYTHON_SPACE}]+`);

/**
 * Rasa's MessageProcessor._sanitize_message: text that starts with a slash but is no payload it reads
 * loses its leading slashes and white space (and trailing white space), and that text is both what
 * NLU or the LLM sees and what the user event stores. Any other text is returned as it is.
 */
export function sanitizedUserText(text: string, slots: { has(name: string): boolean }): string {
  if (!pythonStrip(text).startsWith('/') || readDirectPayload(text, slots)) return text;
  return pythonStrip(text.replace(LEADING_SLASHES_AND_SPACE, ''));
}

/**
 * One `slot=value` pair as Rasa's CommandPayloadReader finds it, anywhere in the payload: the value
 * needs at least one character, and neither part holds a comma or a parenthesis.
 */
const SLOT_PAIR = /([^(),=]+)=([^(),]+)/g;
const INTENT = /^\/(?<intent>[^{@\s]+)(?:@(?<confidence>[0-9.]+))?(?<entities>\{.*\})?\s*$/s;

/** Returns undefined when the text is not a direct payload (it is then understood as free text). */
export function parseDirectPayload(text: string): DirectPayload | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  if (/^\/SetSlots\b/.test(trimmed)) return parseSetSlots(trimmed);
  const match = INTENT.exec(trimmed);
  if (!match?.groups) return undefined;
  const { intent = '', confidence, entities } = match.groups;
  const parsedEntities = entities === undefined ? [] : parseEntities(entities);
  if (parsedEntities === undefined)
    return { kind: 'invalid', reason: `the entities of '${trimmed}' are not JSON` };
  const score = confidence === undefined ? 1 : Number(confidence);
  if (!Number.isFinite(score))
    return { kind: 'invalid', reason: `the confidence in '${trimmed}' is not a number` };
  return { kind: 'intent', intent, confidence: score, entities: parsedEntities };
}

/**
 * Rasa reads only the pairs its pattern finds and skips the rest of the text, so `/SetSlots(a=1, b=)`
 * sets `a` alone; a payload in which it finds no pair (`/SetSlots(a=)`) sets nothing and is read as text.
 */
function parseSetSlots(text: string): DirectPayload {
  const slots: { name: string; value: string }[] = [];
  for (const [pair, name = '', value = ''] of text.matchAll(SLOT_PAIR)) {
    // Rasa looks a blank name up among the domain's slots, finds none and drops the whole payload
    if (name.trim() === '') return { kind: 'invalid', reason: `'${pair.trim()}' in '${text}' names no slot` };
    slots.push({ name: name.trim(), value: value.trim() });
  }
  if (slots.length === 0)
    return { kind: 'invalid', reason: `'${text}' sets no slot: no slot=value pair with a value` };
  return { kind: 'set_slots', slots };
}

/** INTENT hands over `{...}`, which JSON reads as an object or not at all. */
function parseEntities(json: string): { entity: string; value: unknown }[] | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  return Object.entries(parsed).map(([entity, value]) => ({ entity, value }));
}

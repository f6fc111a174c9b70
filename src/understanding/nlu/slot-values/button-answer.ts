import { parseDirectPayload } from '../../../core/domain/direct-payload.js';
import { categoricalFromText } from './categorical-text.js';
import { editDistance, typoTolerance } from './edit-distance.js';
import { normalise } from './normalise.js';

export interface Button {
  readonly title: string;
  readonly payload: string;
}

/**
 * The value a typed reply picks from the buttons of the question ("Yes" for a button titled "Yes"
 * whose payload is `/SetSlots(confirmation=true)`, "immediately" for "Immediate"): the reply is matched
 * against the titles as a categorical value is (same words, whole-word mention, near match); the
 * button's payload then gives the value, from a `/SetSlots` of the slot or, for a plain payload, the
 * payload text itself (what clicking the button would send). `whole`: the reply is the title itself,
 * as good as a click. Undefined when no single button fits.
 */
export function valueFromButtons(
  slotName: string,
  buttons: readonly Button[],
  text: string,
): { value: unknown; whole: boolean } | undefined {
  const titles = [...new Set(buttons.map((button) => button.title).filter((title) => title.trim() !== ''))];
  const title = titles.length > 0 ? categoricalFromText(titles, text) : undefined;
  if (title === undefined) return undefined;
  const values = buttons
    .filter((button) => button.title === title)
    .map((button) => payloadValue(slotName, button.payload))
    .filter((value) => value !== undefined);
  const distinct = new Set(values.map((value) => JSON.stringify(value)));
  const value = distinct.size === 1 ? values[0] : undefined;
  return value === undefined ? undefined : { value: value.value, whole: isWholeTitle(title, text) };
}

/** The reply is the title itself (up to case, punctuation and a typo), not a mention of it among other words. */
function isWholeTitle(title: string, text: string): boolean {
  const target = normalise(title);
  return editDistance(normalise(text), target) <= typoTolerance(target.length);
}

function payloadValue(slotName: string, payload: string): { value: unknown } | undefined {
  const parsed = parseDirectPayload(payload);
  if (parsed === undefined) return payload.trim() === '' ? undefined : { value: payload.trim() };
  if (parsed.kind !== 'set_slots') return undefined;
  const slot = parsed.slots.find((candidate) => candidate.name === slotName);
  return slot && parsed.slots.length === 1 ? { value: slot.value } : undefined;
}

import type { Slot } from '../../core/domain/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { ExtractedEntity } from './entities/types.js';
import type { Button } from './slot-values/button-answer.js';
import { valueFromButtons } from './slot-values/button-answer.js';
import { words } from './slot-values/normalise.js';
import { textAnswer } from './slot-values/text-answer.js';
import { hasOnlyControlledMappings } from './slot-values/from-entity.js';
import { valueForSlot } from './slot-values/value-for-slot.js';

/** At most this many words is a short reply: it answers the question rather than asking for another flow. */
export const SHORT_ANSWER_WORDS = 3;

export interface AskedSlotAnswer {
  readonly value: unknown;
  /**
   * an entity of a from_entity mapping, a button of the question typed as its title ('button'), or the
   * message read as the slot type or naming a button among other words ('text')
   */
  readonly source: 'entity' | 'button' | 'text';
}

/** What else the message could mean, as the classifier and the NLU adapter read it. */
export interface OtherReadings {
  /** a repair intent (cancel, skip, human, restart, repeat) that the message also names in so many words */
  readonly explicitRepair: boolean;
  /** a confident request for a flow that is not running (above the flow threshold) */
  readonly otherFlow: boolean;
  /** entity values for other slots: the message corrects something else */
  readonly otherSlots: boolean;
  /** a confident intent that is no answer: out of scope, chitchat, a repair without its words */
  readonly confidentNonAnswer: boolean;
}

/** The message and what the answer is read from: the asked slot, its question's buttons, the NLU result. */
export interface AnswerSource {
  readonly slot: Slot;
  readonly text: string;
  readonly entities: readonly ExtractedEntity[];
  readonly buttons: readonly Button[];
  /** the domain intent, for the intent conditions of mappings and for yes/no intents */
  readonly intent: string | null;
  readonly engine: EngineContext;
}

/**
 * The answer a message gives to the slot being asked, or undefined when it means something else. An
 * answer wins over the classifier's lean (out of scope, chitchat, an unrelated intent or flow, a repair
 * intent the message does not name); it loses to an explicit repair ("stop", "a human please") unless
 * the user picked one of the question's buttons, and to a confident request for another flow unless the
 * reply is short. A free-text slot takes any reply that is not a question and not confidently something
 * else; its value is the reply without the words around it ("it's @barts" → "@barts").
 */
export function askedSlotAnswer(
  input: AnswerSource & { readonly others: OtherReadings },
): AskedSlotAnswer | undefined {
  const answer = readAnswer(input);
  if (!answer) return undefined;
  const { others } = input;
  const picked = answer.source === 'button';
  if (others.explicitRepair) return picked ? answer : undefined;
  if (answer.source === 'entity') return answer;
  if (others.otherSlots) return picked ? answer : undefined;
  const short = words(input.text).length <= SHORT_ANSWER_WORDS;
  if (others.otherFlow && !short && !picked) return undefined;
  if (isFreeText(input.slot) && !picked) {
    if (input.text.trim().endsWith('?')) return undefined;
    if (others.confidentNonAnswer && !short) return undefined;
  }
  return answer;
}

function readAnswer(input: AnswerSource): AskedSlotAnswer | undefined {
  const { slot, text } = input;
  const read = valueForSlot(slot, text, input.entities);
  if (read?.source === 'entity') return read;
  if (hasOnlyControlledMappings(slot)) return undefined;
  const button = valueFromButtons(slot.name, input.buttons, text);
  if (button) return { value: button.value, source: button.whole ? 'button' : 'text' };
  if (read) return slot.type === 'text' ? { value: textAnswer(text), source: 'text' } : read;
  return yesNoFromIntent(slot, input.intent, input.engine);
}

function isFreeText(slot: Slot): boolean {
  return slot.type === 'text' || slot.type === 'any';
}

/**
 * A yes/no question answered in other words ("yes, let's continue"): the project's own from_intent
 * mappings say which intents mean true and which mean false (affirm → true, deny → false).
 */
function yesNoFromIntent(
  slot: Slot,
  intent: string | null,
  engine: EngineContext,
): AskedSlotAnswer | undefined {
  if (slot.type !== 'bool' || intent === null) return undefined;
  for (const candidate of engine.domain.slots.values()) {
    for (const mapping of candidate.mappings) {
      if (
        mapping.type === 'from_intent' &&
        typeof mapping.value === 'boolean' &&
        mapping.intent.includes(intent)
      ) {
        return { value: mapping.value, source: 'text' };
      }
    }
  }
  return undefined;
}

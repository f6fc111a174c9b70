import type { Flow } from '../../core/flows/types.js';

/** How users ask for something: each flow's name is put in these frames as extra examples. */
const REQUEST_FRAMES = ['I want to {}', "I'd like to {}", 'can you {}', 'help me {}', 'I need to {}'];
/** A sentence with one of these words says what the flow is not for ("Do not start this if ..."). */
const NEGATION = /\b(?:not|never|no|don'?t|doesn'?t|isn'?t|won'?t|cannot|can'?t)\b/i;

/**
 * The examples of the pseudo-intent that starts a flow without an nlu_trigger, from what the flow says
 * about itself (written for Rasa's LLM, which reads them as a request would be matched): its name, its id
 * in words ("check_claim_status" → "check claim status"), its description and each of its sentences,
 * without the sentences that say what the flow is not for, and the name and id as requests ("I want to
 * add a contact", "can you check claim status").
 */
export function flowExamples(flow: Flow): string[] {
  const idWords = flow.id
    .replace(/[_\-.]+/g, ' ')
    .replace(/^flow\s+/i, '')
    .trim();
  const names = unique([flow.name.trim(), idWords].filter((text) => text !== ''));
  const sentences = flow.description
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
  const kept = sentences.filter((sentence) => !NEGATION.test(sentence));
  const requests = names.flatMap((name) =>
    REQUEST_FRAMES.map((frame) => frame.replace('{}', lowerFirst(name))),
  );
  const described = [kept.join(' '), ...(sentences.length > 1 ? kept : [])];
  return unique([...names, ...described, ...requests]).filter((text) => text !== '');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function unique(texts: readonly string[]): string[] {
  return [...new Set(texts)];
}

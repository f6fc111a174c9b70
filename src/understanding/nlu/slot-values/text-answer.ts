/**
 * A free-text answer as Rasa's LLM would store it: the value without the words people put around it.
 * Stripped, as long as something is left: a lead-in ("it's @barts", "just Bart", "the handle is
 * @JoeMyers", "my name is Ana", "from 23456789"), trailing politeness ("Anna, please") and the final
 * full stop. Anything else is kept as typed ("next Tuesday at 10am", "Porto Lounge").
 */
const LEAD_INS = [
  // "it's", "that is", "this is", "just", "simply", "um", "well", "ok"
  /^(?:it['’]?s|it is|that['’]?s|that is|this is|just|simply|um+|uh+|well|ok(?:ay)?)[\s,:]+/i,
  // "the handle is", "my name is", "the number would be", "the reason is"
  /^(?:the|my|our|his|her|their)\s+(?:\p{L}+\s+){0,2}?(?:is|are|would be|will be|was)[\s,:]+/iu,
  // "call it", "I'd say", "I think", "I guess", "make it", "let's say"
  /^(?:call (?:it|them|him|her)|i['’]?d say|i would say|i think|i guess|make it|let['’]?s say)[\s,:]+/i,
  // "to Anna", "from 23456789", "for Ana": a preposition before a short value
  /^(?:to|from|for)\s+(?=\S+(?:\s+\S+)?$)/i,
];
const TRAILERS = /[\s,]+(?:please|thanks|thank you|thx)\s*[.!]*$/i;

export function textAnswer(text: string): string {
  let answer = text.trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const pattern of [...LEAD_INS, TRAILERS]) {
      const next = answer.replace(pattern, '').trim();
      if (next !== answer && next !== '') {
        answer = next;
        changed = true;
      }
    }
  }
  return answer.replace(/(?<=\S)[.!]+$/, '').trim();
}

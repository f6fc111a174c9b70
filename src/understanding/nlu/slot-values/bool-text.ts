import { words } from './normalise.js';

/** Phrases (normalised: lower case, no apostrophes) that clearly answer a yes/no question. */
const YES = phrases(`
  yes, y, ya, yeah, yea, yep, yup, yas, sure, sure thing, of course, ofc, correct, thats correct,
  that is correct, thats right, that is right, right, exactly, absolutely, definitely, certainly,
  indeed, affirmative, true, ok, okay, alright, all right, fine, thats fine, sounds good,
  go ahead, do it, please do, i do, it is, i am, i agree, agreed, why not, for sure, confirm,
  confirmed, i confirm, yes i do, thats it, si, 1
`);
const NO = phrases(`
  no, n, nope, nah, no way, not really, not at all, never, negative, false, incorrect, wrong,
  thats wrong, that is wrong, thats not right, that is not right, thats not correct, not correct,
  i dont, i do not, it is not, its not, it isnt, i am not, im not, dont, do not, definitely not,
  absolutely not, of course not, certainly not, i disagree, nay, not now, not yet, no need, 0
`);
/** Politeness and hesitation that may surround the answer without changing it. */
const FILLER = phrases(`
  please, thanks, thank you, thx, ty, well, so, oh, uh, um, hmm, i think
`);

function phrases(list: string): string[] {
  return list
    .split(',')
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase !== '');
}

type Polarity = 'yes' | 'no' | 'filler';

const PHRASES: ReadonlyMap<string, Polarity> = new Map([
  ...FILLER.map((phrase) => [phrase, 'filler'] as const),
  ...YES.map((phrase) => [phrase, 'yes'] as const),
  ...NO.map((phrase) => [phrase, 'no'] as const),
]);
const LONGEST = Math.max(...[...PHRASES.keys()].map((phrase) => phrase.split(' ').length));

/**
 * true / false when the whole message is made of yes-phrases or of no-phrases (plus politeness: "yes
 * please", "no thanks", "yeah, sure"); undefined when anything else is said ("cancel that", "not sure",
 * "maybe") or both answers appear.
 */
export function boolFromText(text: string): boolean | undefined {
  const tokens = words(text);
  const seen = new Set<Polarity>();
  for (let index = 0; index < tokens.length;) {
    const phrase = longestPhrase(tokens, index);
    if (!phrase) return undefined;
    seen.add(phrase.polarity);
    index += phrase.length;
  }
  if (seen.has('yes') === seen.has('no')) return undefined;
  return seen.has('yes');
}

function longestPhrase(
  tokens: readonly string[],
  index: number,
): { polarity: Polarity; length: number } | undefined {
  for (let length = Math.min(LONGEST, tokens.length - index); length > 0; length--) {
    const polarity = PHRASES.get(tokens.slice(index, index + length).join(' '));
    if (polarity) return { polarity, length };
  }
  return undefined;
}

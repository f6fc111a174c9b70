import { porterStem as stem } from './porter.js';
import { isNumberToken } from './text.js';

/** One block of features; each block is L2-normalised on its own, then scaled by its weight. */
export type FeatureBlock = WordBlock | CharBlock;

export interface WordBlock {
  readonly kind: 'word';
  readonly minNgram: number;
  readonly maxNgram: number;
  readonly weight: number;
  readonly minDf: number;
  /** Keep at most this many n-grams, the most frequent ones (Rasa's `max_features`). */
  readonly maxFeatures: number;
  /** Fold inflections (`cards` → `card`, `charged` → `charg`) before building the n-grams. */
  readonly stem: boolean;
  /** Add a `<num>` token for every run of digits (numbers are rarely seen twice). */
  readonly maskNumbers: boolean;
}

export interface CharBlock {
  readonly kind: 'char';
  /** `char_wb`: n-grams inside each word padded with spaces (Rasa/sklearn); `char`: across the text. */
  readonly analyzer: 'char_wb' | 'char';
  readonly minNgram: number;
  readonly maxNgram: number;
  readonly weight: number;
  readonly minDf: number;
  readonly maxFeatures: number;
}

const START = '<s>';
const END = '</s>';
const NUMBER = '<num>';

export function blockGrams(block: FeatureBlock, tokens: readonly string[]): string[] {
  switch (block.kind) {
    case 'word':
      return wordGrams(block, block.stem ? tokens.map(stem) : tokens);
    case 'char':
      return block.analyzer === 'char_wb'
        ? tokens.flatMap((token) => charGrams(` ${token} `, block.minNgram, block.maxNgram))
        : charGrams(` ${tokens.join(' ')} `, block.minNgram, block.maxNgram);
  }
}

/** Unigrams as they are; longer n-grams over the tokens framed by start and end markers. */
function wordGrams(block: WordBlock, tokens: readonly string[]): string[] {
  const grams: string[] = [];
  if (block.minNgram <= 1) grams.push(...tokens);
  if (block.maskNumbers)
    for (const token of tokens) if (isNumberToken(token) && token.length > 0) grams.push(NUMBER);
  const framed = [START, ...tokens, END];
  for (let n = Math.max(2, block.minNgram); n <= block.maxNgram; n += 1) {
    for (let at = 0; at + n <= framed.length; at += 1) grams.push(framed.slice(at, at + n).join(' '));
  }
  return grams;
}

/** sklearn's `char_wb` rule: a padded string shorter than n yields itself once. */
export function charGrams(padded: string, minNgram: number, maxNgram: number): string[] {
  const grams: string[] = [];
  for (let n = minNgram; n <= maxNgram; n += 1) {
    if (padded.length <= n) {
      grams.push(padded);
      break;
    }
    for (let at = 0; at + n <= padded.length; at += 1) grams.push(padded.slice(at, at + n));
  }
  return grams;
}

import type { PatternMatch } from '../patterns.js';
import type { Token } from '../tokens.js';

/**
 * Features of every token: the lower-cased word, its prefixes and suffixes, shape, digit/case flags,
 * the neighbouring words, and the regex / lookup tables whose matches cover it.
 */
export function sequenceFeatures(tokens: readonly Token[], matches: readonly PatternMatch[]): string[][] {
  const cased = tokens.map((token, index) => casedText(tokens, index));
  const shapes = cased.map(shape);
  return tokens.map((token, index) => [
    ...ownFeatures(token, cased[index] ?? token.text, shapes[index] ?? ''),
    ...contextFeatures(tokens, shapes, index),
    ...patternFeatures(token, matches),
  ]);
}

/**
 * The spelling whose case the features read. A capital that only starts a sentence says nothing about the
 * word: taken as written, it made the capitalised verb of "Give 120 dollars to Marcus" look like a name
 * (names are the title-case words of the training data). Such a word is read with a lower-case initial;
 * a word in capitals, or with a capital inside (`McKay`), keeps its spelling.
 */
function casedText(tokens: readonly Token[], index: number): string {
  const text = tokens[index]?.text ?? '';
  const previous = tokens[index - 1]?.text;
  const startsSentence = previous === undefined || SENTENCE_END.has(previous);
  if (!startsSentence || !/^\p{Lu}[^\p{Lu}]*$/u.test(text)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

const SENTENCE_END = new Set(['.', '!', '?']);

function ownFeatures(token: Token, text: string, tokenShape: string): string[] {
  const word = token.lower;
  const features = ['bias', `w=${word}`, `sh=${tokenShape}`];
  for (const n of [1, 2, 3]) {
    if (word.length <= n) continue;
    features.push(`p${n}=${word.slice(0, n)}`, `s${n}=${word.slice(-n)}`);
  }
  if (/^\p{N}+$/u.test(token.text)) features.push('digit', `len=${Math.min(token.text.length, 6)}`);
  if (/^\p{Lu}\p{Ll}/u.test(text)) features.push('title');
  if (/^\p{Lu}+$/u.test(text) && text.length > 1) features.push('upper');
  if (/^[^\p{L}\p{N}]$/u.test(token.text)) features.push('punct');
  return features;
}

function contextFeatures(tokens: readonly Token[], shapes: readonly string[], index: number): string[] {
  const at = (offset: number): string => {
    const token = tokens[index + offset];
    if (token) return token.lower;
    return offset < 0 ? '<s>' : '</s>';
  };
  return [
    `w-1=${at(-1)}`,
    `w+1=${at(1)}`,
    `w-2=${at(-2)}`,
    `w+2=${at(2)}`,
    `w-1,w=${at(-1)}|${at(0)}`,
    `w,w+1=${at(0)}|${at(1)}`,
    `sh-1=${shapes[index - 1] ?? '<s>'}`,
    `sh+1=${shapes[index + 1] ?? '</s>'}`,
  ];
}

function patternFeatures(token: Token, matches: readonly PatternMatch[]): string[] {
  const features = new Set<string>();
  for (const match of matches) {
    if (match.end <= token.start || match.start >= token.end) continue;
    const position = match.start >= token.start ? 'B' : 'I';
    features.add(`${match.kind}=${match.name}`).add(`${match.kind}=${match.name}:${position}`);
  }
  return [...features];
}

/** `Hello` -> `Xx`, `2025` -> `d`, `e-mail` -> `x-x`: runs of the same character class collapsed. */
export function shape(text: string): string {
  return text
    .replace(/\p{Lu}+/gu, 'X')
    .replace(/[\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{M}]+/gu, 'x')
    .replace(/\p{N}+/gu, 'd')
    .slice(0, 8);
}

/** Features of the token's own spelling, hidden at random in training (see `dropout`). */
export function isWordFormFeature(feature: string): boolean {
  return /^(?:w|p\d|s\d)=/.test(feature);
}

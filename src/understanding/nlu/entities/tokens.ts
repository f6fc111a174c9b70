/** A word or a single punctuation mark, with its offsets into the original text. */
export interface Token {
  readonly text: string;
  readonly lower: string;
  readonly start: number;
  readonly end: number;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;

/** Splits text into runs of letters/digits (keeping an apostrophe suffix) and single punctuation marks. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    tokens.push({ text: match[0], lower: match[0].toLowerCase(), start, end: start + match[0].length });
  }
  return tokens;
}

/** Lookbehind / lookahead that stand in for `\b` around Unicode words. */
export const WORD_START = '(?<![\\p{L}\\p{M}\\p{N}_])';
export const WORD_END = '(?![\\p{L}\\p{M}\\p{N}_])';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

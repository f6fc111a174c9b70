/** Text normalisation and tokenisation shared by training and prediction. */

const TOKEN = /[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/g;
const DIGITS = /^\p{N}+$/u;

/** NFKC, lower case, typographic apostrophes folded to `'`. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'");
}

/** Runs of letters/digits (keeping an apostrophe suffix such as `n't` or `'s`), or single punctuation marks. */
export function tokenise(text: string): string[] {
  return normaliseText(text).match(TOKEN) ?? [];
}

export function isNumberToken(token: string): boolean {
  return DIGITS.test(token);
}

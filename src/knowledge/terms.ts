/**
 * The words a passage is indexed by and a question is searched with. The same function serves both
 * sides, so a word matches whatever its case or (in English) its plural or -ing/-ed form: "Refunds"
 * and "refunded" both index as "refund". English function words ("the", "how", "do") are dropped, so a
 * question matches a passage by the words that carry its meaning.
 */

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

const ENGLISH_STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves please tell know want need like get let us also much many ' +
    'hi hello hey thanks thank okay ok yes'
  ).split(' '),
);

/** Whether Parley knows the function words of the language (English only). */
export function hasStopWords(language: string): boolean {
  return language.toLowerCase().startsWith('en');
}

/** Splits text into word tokens (letters and digits, with inner apostrophes). */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/**
 * A token as an index term: lower case; for English, null for a function word and a light stem
 * otherwise. Other languages keep every word, lower-cased.
 */
export function termProcessor(language: string): (token: string) => string | null {
  const english = hasStopWords(language);
  return (token) => {
    const word = token
      .toLowerCase()
      .replace(/['’]s$/u, '')
      .replace(/['’]/gu, '');
    if (word.length === 0) return null;
    if (!english) return word;
    if (ENGLISH_STOP_WORDS.has(word)) return null;
    return stem(word);
  };
}

/** The distinct terms of a question, in order. */
export function queryTerms(text: string, process: (token: string) => string | null): string[] {
  const terms = tokenize(text).flatMap((token) => process(token) ?? []);
  return [...new Set(terms)];
}

/** A light English stemmer: plural -s/-es/-ies, -ing, -ed and a final -e; short words are left alone. */
function stem(word: string): string {
  if (/\d/u.test(word) || word.length <= 3) return word;
  const base = suffixless(word);
  return base.length > 4 && base.endsWith('e') ? base.slice(0, -1) : base;
}

function suffixless(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(?:ch|sh|x|ss|zz)es$/u.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/u.test(word)) return word.slice(0, -1);
  return word;
}

/** "shipp" (from shipping) → "ship"; "refund" stays. */
function undouble(word: string): string {
  return /([b-df-hj-np-tv-z])\1$/u.test(word) && !/(?:ll|ss|zz)$/u.test(word) ? word.slice(0, -1) : word;
}

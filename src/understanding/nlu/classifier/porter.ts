/** The Porter (1980) stemmer for English words, following the published algorithm step by step. */

const VOWELS = /[aeiou]/;

/** The measure m of a stem: the number of vowel-consonant sequences ([C](VC)^m[V]). */
function measure(stem: string): number {
  const form = consonantForm(stem).replace(/c+/g, 'c').replace(/v+/g, 'v');
  return (form.match(/vc/g) ?? []).length;
}

function consonantForm(word: string): string {
  let form = '';
  for (let at = 0; at < word.length; at += 1) form += isConsonant(word, at) ? 'c' : 'v';
  return form;
}

function isConsonant(word: string, at: number): boolean {
  const char = word[at] as string;
  if (VOWELS.test(char)) return false;
  if (char === 'y') return at === 0 || !isConsonant(word, at - 1);
  return true;
}

const hasVowel = (stem: string): boolean => consonantForm(stem).includes('v');
const endsDoubleConsonant = (word: string): boolean =>
  word.length > 1 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);
/** *o: the stem ends consonant-vowel-consonant, and the last is not w, x or y. */
const endsCvc = (word: string): boolean =>
  word.length >= 3 &&
  consonantForm(word.slice(-3)) === 'cvc' &&
  isConsonant(word, word.length - 3) &&
  !/[wxy]$/.test(word);

/** Replaces the first matching suffix when the remaining stem satisfies `condition`. */
function replaceSuffix(
  word: string,
  rules: readonly (readonly [string, string])[],
  condition: (stem: string) => boolean,
): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return condition(stem) ? stem + replacement : word;
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith('sses') || word.endsWith('ies')) return word.slice(0, -2);
  if (word.endsWith('ss')) return word;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function step1b(word: string): string {
  if (word.endsWith('eed')) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  const suffix = word.endsWith('ed') ? 'ed' : word.endsWith('ing') ? 'ing' : undefined;
  if (!suffix) return word;
  const stem = word.slice(0, -suffix.length);
  if (!hasVowel(stem)) return word;
  if (/(at|bl|iz)$/.test(stem)) return stem + 'e';
  if (endsDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  return measure(stem) === 1 && endsCvc(stem) ? stem + 'e' : stem;
}

function step1c(word: string): string {
  return word.endsWith('y') && hasVowel(word.slice(0, -1)) ? word.slice(0, -1) + 'i' : word;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
].map((suffix) => [suffix, ''] as const);

/** Longest suffixes first, as the algorithm picks the longest match. */
const byLength = (rules: readonly (readonly [string, string])[]) =>
  [...rules].sort((a, b) => b[0].length - a[0].length);
const STEP2_SORTED = byLength(STEP2);
const STEP3_SORTED = byLength(STEP3);
const STEP4_SORTED = byLength(STEP4);

/** Step 4 drops a suffix when m > 1; "ion" only after s or t. */
function step4(word: string): string {
  if (!word.endsWith('ion')) return replaceSuffix(word, STEP4_SORTED, (stem) => measure(stem) > 1);
  const stem = word.slice(0, -3);
  return measure(stem) > 1 && /[st]$/.test(stem) ? stem : word;
}

function step5(word: string): string {
  let result = word;
  if (result.endsWith('e')) {
    const stem = result.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) result = stem;
  }
  if (measure(result) > 1 && endsDoubleConsonant(result) && result.endsWith('l'))
    result = result.slice(0, -1);
  return result;
}

export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let result = step1c(step1b(step1a(word)));
  result = replaceSuffix(result, STEP2_SORTED, (stem) => measure(stem) > 0);
  result = replaceSuffix(result, STEP3_SORTED, (stem) => measure(stem) > 0);
  return step5(step4(result));
}

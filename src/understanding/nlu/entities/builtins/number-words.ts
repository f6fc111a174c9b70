const numbered = (words: readonly string[], value: (index: number) => number): ReadonlyMap<string, number> =>
  new Map(words.map((word, index) => [word, value(index)]));

const UNITS = numbered(
  ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  (i) => i,
);
const TEENS = numbered(
  [
    'ten',
    'eleven',
    'twelve',
    'thirteen',
    'fourteen',
    'fifteen',
    'sixteen',
    'seventeen',
    'eighteen',
    'nineteen',
  ],
  (i) => 10 + i,
);
const TENS = numbered(
  ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'],
  (i) => 20 + 10 * i,
);
const SCALES: ReadonlyMap<string, number> = new Map([
  ['thousand', 1e3],
  ['million', 1e6],
  ['billion', 1e9],
]);

type Kind = 'start' | 'a' | 'unit' | 'teen' | 'tens' | 'hundred' | 'scale' | 'and' | 'point' | 'decimal';

interface State {
  kind: Kind;
  total: number;
  current: number;
  lastScale: number;
  decimals: string;
}

/** The words an English number is spelled with, for scanning text. */
export function isNumberWord(word: string): boolean {
  const lower = word.toLowerCase();
  return UNITS.has(lower) || TEENS.has(lower) || TENS.has(lower) || SCALES.has(lower) || lower === 'hundred';
}

export function scaleOf(word: string): number | undefined {
  const lower = word.toLowerCase();
  return lower === 'hundred' ? 100 : SCALES.get(lower);
}

/**
 * Reads the longest prefix of `words` that spells a number ("twenty five", "one hundred and two",
 * "a thousand", "three point one four"): the value and how many words it used, or undefined.
 */
export function parseNumberWords(words: readonly string[]): { value: number; length: number } | undefined {
  const state: State = { kind: 'start', total: 0, current: 0, lastScale: Infinity, decimals: '' };
  let best: { value: number; length: number } | undefined;
  for (const [index, raw] of words.entries()) {
    if (!advance(state, raw.toLowerCase())) break;
    if (isFinal(state.kind)) best = { value: valueOf(state), length: index + 1 };
  }
  return best;
}

function isFinal(kind: Kind): boolean {
  return kind !== 'start' && kind !== 'a' && kind !== 'and' && kind !== 'point';
}

function valueOf(state: State): number {
  const whole = state.total + state.current;
  return state.decimals === '' ? whole : Number(`${whole}.${state.decimals}`);
}

/** One word of the state machine; false when the word cannot continue the number. */
function advance(state: State, word: string): boolean {
  if (state.kind === 'point' || state.kind === 'decimal') return decimal(state, word);
  if (word === 'a') return state.kind === 'start' && set(state, 'a');
  if (word === 'and') return (state.kind === 'hundred' || state.kind === 'scale') && set(state, 'and');
  if (word === 'point') return isFinal(state.kind) && set(state, 'point');
  if (word === 'hundred') return hundred(state);
  const scale = SCALES.get(word);
  if (scale !== undefined) return applyScale(state, scale);
  return smallNumber(state, word);
}

function set(state: State, kind: Kind): boolean {
  state.kind = kind;
  return true;
}

function smallNumber(state: State, word: string): boolean {
  const afterTens = state.kind === 'tens';
  const fresh = ['start', 'hundred', 'scale', 'and'].includes(state.kind);
  if (UNITS.has(word) && (fresh || afterTens)) {
    if (word === 'zero' && state.kind !== 'start') return false;
    state.current += UNITS.get(word) ?? 0;
    return set(state, 'unit');
  }
  if (TEENS.has(word) && fresh) {
    state.current += TEENS.get(word) ?? 0;
    return set(state, 'teen');
  }
  if (TENS.has(word) && fresh) {
    state.current += TENS.get(word) ?? 0;
    return set(state, 'tens');
  }
  return false;
}

function hundred(state: State): boolean {
  if (state.kind === 'a' || state.kind === 'start') state.current = 1;
  else if (!(state.kind === 'unit' || state.kind === 'teen') || state.current === 0 || state.current >= 100)
    return false;
  state.current *= 100;
  return set(state, 'hundred');
}

function applyScale(state: State, scale: number): boolean {
  if (state.kind === 'a') state.current = 1;
  else if (!['unit', 'teen', 'tens', 'hundred'].includes(state.kind) || state.current === 0) return false;
  if (scale >= state.lastScale) return false;
  state.total += state.current * scale;
  state.current = 0;
  state.lastScale = scale;
  return set(state, 'scale');
}

function decimal(state: State, word: string): boolean {
  const digit = word === 'oh' ? 0 : UNITS.get(word);
  if (digit === undefined) return false;
  state.decimals += String(digit);
  return set(state, 'decimal');
}

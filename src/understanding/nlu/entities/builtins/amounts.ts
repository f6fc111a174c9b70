import type { NumberMatch } from './numbers.js';

/** An amount of money: a number with a currency before or after it. */
export interface AmountMatch {
  readonly start: number;
  readonly end: number;
  readonly value: number;
  /** ISO 4217 code; `$` is read as USD */
  readonly currency: string;
}

const SYMBOLS: Readonly<Record<string, string>> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
};
/** currency words, by the code they stand for */
const WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    USD: 'dollar dollars buck bucks',
    EUR: 'euro euros',
    GBP: 'pound pounds quid',
    JPY: 'yen',
    INR: 'rupee rupees',
    CHF: 'franc francs',
  }).flatMap(([code, words]) => words.split(' ').map((word) => [word, code] as const)),
);
const CODES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'INR',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CNY',
];

const CODE = CODES.join('|');
const PREFIX = new RegExp(`(?:([$€£¥₹])|(?<![\\p{L}])(${CODE}))\\s?$`, 'iu');
const SUFFIX = new RegExp(
  `^(?:\\s?([$€£¥₹])|\\s*(${CODE}|${[...WORDS.keys()].join('|')})(?![\\p{L}\\p{N}]))`,
  'iu',
);

/** Amounts around the given numbers: "$50", "€12.5", "50 dollars", "12.50 EUR", "fifty bucks". */
export function findAmounts(text: string, numbers: readonly NumberMatch[]): AmountMatch[] {
  return numbers.flatMap((number) => {
    const before = PREFIX.exec(text.slice(0, number.start));
    if (before) {
      const currency = currencyOf(before[1] ?? before[2] ?? '');
      return [{ start: number.start - before[0].length, end: number.end, value: number.value, currency }];
    }
    const after = SUFFIX.exec(text.slice(number.end));
    if (after) {
      const currency = currencyOf(after[1] ?? after[2] ?? '');
      return [{ start: number.start, end: number.end + after[0].length, value: number.value, currency }];
    }
    return [];
  });
}

function currencyOf(mark: string): string {
  return SYMBOLS[mark] ?? WORDS.get(mark.toLowerCase()) ?? mark.toUpperCase();
}

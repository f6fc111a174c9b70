import { parseNumberWords } from './number-words.js';
import { addDays, weekdayOf } from './calendar.js';
import type { CalendarDate } from './calendar.js';
import type { DateMatch } from './absolute-dates.js';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_WORDS: Readonly<Record<string, number>> = {
  today: 0,
  tonight: 0,
  tomorrow: 1,
  tmrw: 1,
  yesterday: -1,
  'day after tomorrow': 2,
  'day before yesterday': -2,
};

const START = '(?<![\\p{L}\\p{N}])';
const END = '(?![\\p{L}\\p{N}])';
const DAY_WORD = new RegExp(
  `${START}(?:the\\s+)?(day\\s+after\\s+tomorrow|day\\s+before\\s+yesterday|today|tonight|tomorrow|tmrw|yesterday)${END}`,
  'giu',
);
const WEEKDAY = new RegExp(`${START}(?:(this|next|last|coming)\\s+)?(${WEEKDAYS.join('|')})${END}`, 'giu');
const OFFSET_AHEAD = new RegExp(`${START}in\\s+(\\d+|an?|\\p{L}+)\\s+(days?|weeks?)${END}`, 'giu');
const OFFSET_EITHER = new RegExp(
  `${START}(\\d+|an?|\\p{L}+)\\s+(days?|weeks?)\\s+(ago|from\\s+now)${END}`,
  'giu',
);

/** today, tomorrow, yesterday, (the) day after tomorrow, (the) day before yesterday. */
export function dayWordDates(text: string, reference: CalendarDate): DateMatch[] {
  return [...text.matchAll(DAY_WORD)].map((m) => {
    const word = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    return at(m, addDays(reference, DAY_WORDS[word] ?? 0));
  });
}

/**
 * Weekdays relative to the reference day: "friday" and "this friday" are the first Friday on or after it
 * (today counts), "next friday" / "coming friday" the first Friday strictly after it (1-7 days ahead),
 * and "last friday" the latest Friday strictly before it.
 */
export function weekdayDates(text: string, reference: CalendarDate): DateMatch[] {
  return [...text.matchAll(WEEKDAY)].map((m) => {
    const target = WEEKDAYS.indexOf((m[2] ?? '').toLowerCase());
    const today = weekdayOf(reference);
    const qualifier = (m[1] ?? 'this').toLowerCase();
    const ahead = (target - today + 7) % 7;
    if (qualifier === 'last') return at(m, addDays(reference, -((today - target + 7) % 7 || 7)));
    const strictlyAfter = qualifier === 'next' || qualifier === 'coming';
    return at(m, addDays(reference, strictlyAfter && ahead === 0 ? 7 : ahead));
  });
}

/** "in 3 days", "in two weeks", "a week from now", "5 days ago". */
export function offsetDates(text: string, reference: CalendarDate): DateMatch[] {
  const ahead = [...text.matchAll(OFFSET_AHEAD)].flatMap((m) => offset(m, m[1], m[2], 1, reference));
  const either = [...text.matchAll(OFFSET_EITHER)].flatMap((m) => {
    const direction = (m[3] ?? '').toLowerCase() === 'ago' ? -1 : 1;
    return offset(m, m[1], m[2], direction, reference);
  });
  return [...ahead, ...either];
}

function offset(
  match: RegExpMatchArray,
  count: string | undefined,
  unit: string | undefined,
  direction: number,
  reference: CalendarDate,
): DateMatch[] {
  const amount = countOf(count ?? '');
  if (amount === undefined) return [];
  const days = (unit ?? '').toLowerCase().startsWith('week') ? 7 * amount : amount;
  return [at(match, addDays(reference, direction * days))];
}

function countOf(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  if (/^an?$/i.test(word)) return 1;
  const parsed = parseNumberWords([word]);
  return parsed && Number.isInteger(parsed.value) ? parsed.value : undefined;
}

function at(match: RegExpMatchArray, date: CalendarDate): DateMatch {
  const start = match.index ?? 0;
  return { start, end: start + match[0].length, date };
}

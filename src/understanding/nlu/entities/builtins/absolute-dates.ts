import { compareDates, isValidDate } from './calendar.js';
import type { CalendarDate } from './calendar.js';

export type DateOrder = 'DMY' | 'MDY';

export interface DateMatch {
  readonly start: number;
  readonly end: number;
  readonly date: CalendarDate;
}

const MONTHS = [
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sept', 'sep'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
] as const;
const MONTH = `(${MONTHS.flat().join('|')})\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(?:,?\\s+(\\d{4}))?';
const START = '(?<![\\p{L}\\p{N}])';
const END = '(?![\\p{L}\\p{N}])';

const ISO = /(?<![\p{L}\p{N}])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\p{L}\p{N}])/gu;
const NUMERIC = /(?<![\p{L}\p{N}./-])(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?![\p{L}\p{N}])/gu;
const DAY_MONTH = new RegExp(`${START}${DAY}(?:\\s+of)?\\s+${MONTH}${YEAR}${END}`, 'giu');
const MONTH_DAY = new RegExp(`${START}${MONTH}\\s+(?:the\\s+)?${DAY}${YEAR}${END}`, 'giu');

/** Year-first dates: 2025-12-12, 2025/12/12, 2025.12.12. */
export function isoDates(text: string): DateMatch[] {
  return [...text.matchAll(ISO)].flatMap((m) =>
    valid(m, { year: num(m[1]), month: num(m[3]), day: num(m[4]) }),
  );
}

/**
 * Day-month-year with one separator (12/12/2025, 25-12-2025, 12.25.2025). When only one reading is a real
 * date (25/12 can only be day-first, 12/25 only month-first) that reading is used; when both are, the
 * configured order decides (DMY by default); when neither is, it is not a date.
 */
export function numericDates(text: string, order: DateOrder): DateMatch[] {
  return [...text.matchAll(NUMERIC)].flatMap((m) => {
    const [first, second, year] = [num(m[1]), num(m[3]), num(m[4])];
    const dayFirst = { year, month: second, day: first };
    const monthFirst = { year, month: first, day: second };
    const readings = order === 'DMY' ? [dayFirst, monthFirst] : [monthFirst, dayFirst];
    const date = readings.find(isValidDate);
    return date ? valid(m, date) : [];
  });
}

/**
 * Dates with a month name: "12 December 2025", "12th of Dec", "December 12, 2025", "Dec 12th". Without a
 * year, the next such day on or after the reference day.
 */
export function namedMonthDates(text: string, reference: CalendarDate): DateMatch[] {
  const dayFirst = [...text.matchAll(DAY_MONTH)].flatMap((m) => named(m, m[1], m[2], m[3], reference));
  const monthFirst = [...text.matchAll(MONTH_DAY)].flatMap((m) => named(m, m[2], m[1], m[3], reference));
  return [...dayFirst, ...monthFirst];
}

function named(
  match: RegExpMatchArray,
  day: string | undefined,
  month: string | undefined,
  year: string | undefined,
  reference: CalendarDate,
): DateMatch[] {
  const monthNumber = monthOf(month ?? '');
  if (monthNumber === undefined) return [];
  if (year !== undefined) return valid(match, { year: num(year), month: monthNumber, day: num(day) });
  const thisYear = { year: reference.year, month: monthNumber, day: num(day) };
  const date = compareDates(thisYear, reference) < 0 ? { ...thisYear, year: reference.year + 1 } : thisYear;
  return valid(match, date);
}

export function monthOf(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/\.$/, '');
  const index = MONTHS.findIndex((names) => (names as readonly string[]).includes(lower));
  return index < 0 ? undefined : index + 1;
}

function valid(match: RegExpMatchArray, date: CalendarDate): DateMatch[] {
  const start = match.index ?? 0;
  return isValidDate(date) ? [{ start, end: start + match[0].length, date }] : [];
}

function num(text: string | undefined): number {
  return Number(text ?? 'NaN');
}

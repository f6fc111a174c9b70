import { isoDates, namedMonthDates, numericDates } from './absolute-dates.js';
import type { DateMatch, DateOrder } from './absolute-dates.js';
import type { CalendarDate } from './calendar.js';
import { dayWordDates, offsetDates, weekdayDates } from './relative-dates.js';

export type { DateMatch, DateOrder } from './absolute-dates.js';

/** Every date expression in `text`, absolute or relative to `reference`; spans may overlap. */
export function findDates(text: string, reference: CalendarDate, order: DateOrder): DateMatch[] {
  return [
    ...isoDates(text),
    ...numericDates(text, order),
    ...namedMonthDates(text, reference),
    ...dayWordDates(text, reference),
    ...weekdayDates(text, reference),
    ...offsetDates(text, reference),
  ];
}

import { findAmounts } from './amounts.js';
import { calendarDateOf, formatDate } from './calendar.js';
import type { CalendarDate } from './calendar.js';
import { findDates } from './dates.js';
import type { DateOrder } from './dates.js';
import { findEmails } from './emails.js';
import { findNumbers } from './numbers.js';
import { EntityError } from '../errors.js';
import type { ExtractedEntity } from '../types.js';

/** The Duckling-like dimensions, named as the entities they produce. */
export type BuiltinDimension = 'number' | 'amount' | 'date' | 'email';
export const BUILTIN_DIMENSIONS: readonly BuiltinDimension[] = ['number', 'amount', 'date', 'email'];

export interface BuiltinOptions {
  /** default: all four */
  readonly dimensions?: readonly BuiltinDimension[];
  /** how an all-numeric date such as 03/04/2025 is read when both readings are valid; default DMY */
  readonly dateOrder?: DateOrder;
}

export interface BuiltinJson {
  readonly dimensions: readonly BuiltinDimension[];
  readonly dateOrder: DateOrder;
}

export interface BuiltinContext {
  /** the day relative dates count from; a `YYYY-MM-DD` string, or a Date read in local time */
  readonly referenceDate?: Date | string;
}

const EXTRACTOR = 'BuiltinEntityExtractor';

/**
 * Rule-based extraction of `number`, `amount`, `date` and `email` entities with normalised values
 * (Duckling's role): numbers as JS numbers, amounts as the number with `{value, unit}` in
 * `additionalInfo`, dates as `YYYY-MM-DD`, e-mails with a lower-cased domain. Spans may overlap
 * (the `50` inside `$50`); `extractEntities` resolves overlaps.
 */
export class BuiltinEntityExtractor {
  readonly dimensions: readonly BuiltinDimension[];
  readonly dateOrder: DateOrder;

  constructor(options: BuiltinOptions = {}) {
    this.dimensions = options.dimensions ?? BUILTIN_DIMENSIONS;
    this.dateOrder = options.dateOrder ?? 'DMY';
  }

  static fromJSON(json: BuiltinJson): BuiltinEntityExtractor {
    return new BuiltinEntityExtractor(json);
  }

  extract(text: string, context: BuiltinContext = {}): ExtractedEntity[] {
    const wanted = new Set(this.dimensions);
    const numbers = findNumbers(text);
    const entities: ExtractedEntity[] = [];
    if (wanted.has('number'))
      entities.push(...numbers.map((n) => entity('number', n, n.value, { value: n.value, type: 'value' })));
    if (wanted.has('amount'))
      entities.push(
        ...findAmounts(text, numbers).map((a) =>
          entity('amount', a, a.value, { value: a.value, unit: a.currency }),
        ),
      );
    if (wanted.has('date')) entities.push(...this.dates(text, context));
    if (wanted.has('email')) entities.push(...findEmails(text).map((e) => entity('email', e, e.value)));
    return entities;
  }

  toJSON(): BuiltinJson {
    return { dimensions: this.dimensions, dateOrder: this.dateOrder };
  }

  private dates(text: string, context: BuiltinContext): ExtractedEntity[] {
    const reference = referenceDay(context.referenceDate);
    return findDates(text, reference, this.dateOrder).map((match) => {
      const value = formatDate(match.date);
      return entity('date', match, value, { value, grain: 'day' });
    });
  }
}

function referenceDay(reference: Date | string = new Date()): CalendarDate {
  const day = calendarDateOf(reference);
  if (day) return day;
  throw new EntityError(
    'NLU_BAD_OPTION',
    `referenceDate must be a valid Date or a YYYY-MM-DD string, not '${String(reference)}'.`,
  );
}

function entity(
  name: BuiltinDimension,
  span: { readonly start: number; readonly end: number },
  value: unknown,
  additionalInfo?: Record<string, unknown>,
): ExtractedEntity {
  return {
    entity: name,
    value,
    start: span.start,
    end: span.end,
    confidence: 1,
    extractor: EXTRACTOR,
    ...(additionalInfo ? { additionalInfo } : {}),
  };
}

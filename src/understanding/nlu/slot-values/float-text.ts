import { coerceSlotValue } from '../../../core/domain/slot-values.js';
import { BuiltinEntityExtractor } from '../entities/builtins/builtin-extractor.js';
import { resolveOverlaps } from '../entities/overlaps.js';

const NUMBERS = new BuiltinEntityExtractor({ dimensions: ['number', 'amount', 'date'] });
/** Dates are only found to keep their digits from counting as numbers, so any fixed day will do. */
const ANY_DAY = '2000-01-01';

/**
 * The number a message gives: the message itself when it is a number ("12.5"), else the one number or
 * amount in it ("1,200.50", "$50", "50 dollars", "fifty", "twenty-five point five", "about 30 please").
 * Undefined when there is none or more than one distinct value ("between 10 and 20"); the digits of
 * dates do not count.
 */
export function floatFromText(text: string): number | undefined {
  const direct = coerceSlotValue({ type: 'float', values: [] }, text.trim());
  if (direct.ok && typeof direct.value === 'number') return direct.value;
  const found = resolveOverlaps(NUMBERS.extract(text, { referenceDate: ANY_DAY }));
  const values = new Set(
    found
      .filter((entity) => entity.entity !== 'date')
      .flatMap((e) => (typeof e.value === 'number' ? [e.value] : [])),
  );
  return values.size === 1 ? [...values][0] : undefined;
}

import { expect } from 'chai';
import { BuiltinEntityExtractor, EntityError } from '../../../src/understanding/nlu/entities/index.js';
import { REFERENCE_DATE } from './helpers.js';

const dates = new BuiltinEntityExtractor({ dimensions: ['date'] });
const longest = (text: string, referenceDate: string = REFERENCE_DATE) =>
  dates
    .extract(text, { referenceDate })
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .map((entity) => ({ value: entity.value, text: text.slice(entity.start, entity.end) }))[0];

describe('built-in dates (reference day Wednesday 2025-12-10)', () => {
  const cases: [string, string, string][] = [
    ['on 2025-12-12 please', '2025-12-12', '2025-12-12'],
    ['12/12/2025', '2025-12-12', '12/12/2025'],
    ['12 December 2025', '2025-12-12', '12 December 2025'],
    ['December 12th, 2025', '2025-12-12', 'December 12th, 2025'],
    ['the 3rd of march', '2026-03-03', '3rd of march'],
    ['dec 24', '2025-12-24', 'dec 24'],
    ['tomorrow', '2025-12-11', 'tomorrow'],
    ['yesterday', '2025-12-09', 'yesterday'],
    ['the day after tomorrow', '2025-12-12', 'the day after tomorrow'],
    ['friday', '2025-12-12', 'friday'],
    ['next friday', '2025-12-12', 'next friday'],
    ['next wednesday', '2025-12-17', 'next wednesday'],
    ['this wednesday', '2025-12-10', 'this wednesday'],
    ['last friday', '2025-12-05', 'last friday'],
    ['in 3 days', '2025-12-13', 'in 3 days'],
    ['two weeks ago', '2025-11-26', 'two weeks ago'],
  ];
  for (const [text, value, span] of cases) {
    it(`reads "${text}" as ${value}`, () => {
      expect(longest(text)).to.deep.equal({ value, text: span });
    });
  }

  it('reads d/m/y when only the day-first reading is a date, m/d/y when only that one is', () => {
    expect(longest('25/12/2025')?.value).to.equal('2025-12-25');
    expect(longest('12/25/2025')?.value).to.equal('2025-12-25');
  });

  it('reads an ambiguous all-numeric date day-first by default, month-first when configured', () => {
    expect(longest('03/04/2025')?.value).to.equal('2025-04-03');
    const american = new BuiltinEntityExtractor({ dimensions: ['date'], dateOrder: 'MDY' });
    expect(american.extract('03/04/2025', { referenceDate: REFERENCE_DATE })[0]?.value).to.equal(
      '2025-03-04',
    );
  });

  it('rejects dates that do not exist', () => {
    expect(dates.extract('31/02/2025 or 2025-13-01', { referenceDate: REFERENCE_DATE })).to.deep.equal([]);
  });

  it('counts "next <weekday>" from the day after the reference day', () => {
    expect(longest('next friday', '2025-12-12')?.value).to.equal('2025-12-19');
    expect(longest('friday', '2025-12-12')?.value).to.equal('2025-12-12');
  });

  it('moves a date without a year that has passed to next year', () => {
    expect(longest('5 January')?.value).to.equal('2026-01-05');
    expect(longest('10 December')?.value).to.equal('2025-12-10');
  });

  it('accepts a Date as reference and refuses a malformed one', () => {
    expect(longest('tomorrow', REFERENCE_DATE)?.value).to.equal('2025-12-11');
    expect(dates.extract('tomorrow', { referenceDate: new Date(2025, 11, 31) })[0]?.value).to.equal(
      '2026-01-01',
    );
    expect(() => dates.extract('tomorrow', { referenceDate: '10/12/2025' })).to.throw(EntityError);
  });
});

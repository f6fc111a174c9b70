import { expect } from 'chai';
import { BuiltinEntityExtractor } from '../../../src/understanding/nlu/entities/index.js';

const amounts = new BuiltinEntityExtractor({ dimensions: ['amount'] });

describe('built-in amounts of money', () => {
  const cases: [string, number, string, string][] = [
    ['$50', 50, 'USD', '$50'],
    ['send 50 dollars', 50, 'USD', '50 dollars'],
    ['€12.5 please', 12.5, 'EUR', '€12.5'],
    ['12.50 EUR', 12.5, 'EUR', '12.50 EUR'],
    ['fifty bucks', 50, 'USD', 'fifty bucks'],
    ['£1,000', 1000, 'GBP', '£1,000'],
    ['USD 20', 20, 'USD', 'USD 20'],
    ['10 pounds', 10, 'GBP', '10 pounds'],
  ];
  for (const [text, value, unit, span] of cases) {
    it(`reads "${text}" as ${value} ${unit}`, () => {
      const [found, ...rest] = amounts.extract(text);
      expect(rest).to.deep.equal([]);
      expect(found).to.deep.include({ entity: 'amount', value, additionalInfo: { value, unit } });
      expect(text.slice(found?.start, found?.end)).to.equal(span);
    });
  }

  it('does not take a bare number for an amount', () => {
    expect(amounts.extract('I have 50 apples')).to.deep.equal([]);
  });
});

import { expect } from 'chai';
import { floatFromText } from '../../../src/understanding/nlu/slot-values/index.js';

describe('float slots from free text', () => {
  const cases: [string, number][] = [
    ['42', 42],
    ['12.5', 12.5],
    ['1,200.50', 1200.5],
    ['$50', 50],
    ['50 dollars', 50],
    ['€12.5', 12.5],
    ['fifty', 50],
    ['twenty five', 25],
    ['twenty-five point five', 25.5],
    ['about 30 please', 30],
    ['send 40 on 12 December', 40],
    ['-7', -7],
  ];
  for (const [text, value] of cases) {
    it(`reads "${text}" as ${value}`, () => {
      expect(floatFromText(text)).to.equal(value);
    });
  }

  const unclear = ['no idea', 'between 10 and 20', 'the savings one', '', 'lots'];
  for (const text of unclear) {
    it(`leaves "${text}" unfilled`, () => {
      expect(floatFromText(text)).to.equal(undefined);
    });
  }

  it('counts the same number said twice once', () => {
    expect(floatFromText('50, yes 50 dollars')).to.equal(50);
  });
});

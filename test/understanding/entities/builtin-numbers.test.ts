import { expect } from 'chai';
import { BuiltinEntityExtractor, parseNumberWords } from '../../../src/understanding/nlu/entities/index.js';
import { REFERENCE_DATE, summary } from './helpers.js';

const numbers = new BuiltinEntityExtractor({ dimensions: ['number'] });
const read = (text: string) => summary(text, numbers.extract(text, { referenceDate: REFERENCE_DATE }));

describe('built-in numbers', () => {
  const cases: [string, number, string][] = [
    ['send 1,200.50 now', 1200.5, '1,200.50'],
    ['about 12.5 please', 12.5, '12.5'],
    ['it is -3 outside', -3, '-3'],
    ['twenty five', 25, 'twenty five'],
    ['twenty-five of them', 25, 'twenty-five'],
    ['fifty', 50, 'fifty'],
    ['one hundred and twenty three', 123, 'one hundred and twenty three'],
    ['a thousand times', 1000, 'a thousand'],
    ['two thousand five hundred', 2500, 'two thousand five hundred'],
    ['twenty-five point five', 25.5, 'twenty-five point five'],
    ['2 million people', 2_000_000, '2 million'],
  ];
  for (const [text, value, span] of cases) {
    it(`reads "${text}" as ${value}`, () => {
      expect(read(text)).to.deep.equal([{ entity: 'number', value, text: span }]);
    });
  }

  it('finds several numbers in one message', () => {
    expect(read('between 10 and twenty').map((e) => e.value)).to.deep.equal([10, 20]);
  });

  it('does not read a pronoun "one" as a number', () => {
    expect(read('the savings one')).to.deep.equal([]);
    expect(read('which one?')).to.deep.equal([]);
    expect(read('one')).to.deep.equal([{ entity: 'number', value: 1, text: 'one' }]);
  });

  it('ignores digits glued to letters and broken digit groups', () => {
    expect(read('code A12 and 1,2000')).to.deep.equal([]);
  });

  it('parses only the longest valid prefix of number words', () => {
    expect(parseNumberWords(['twenty', 'five', 'apples'])).to.deep.equal({ value: 25, length: 2 });
    expect(parseNumberWords(['five', 'five'])).to.deep.equal({ value: 5, length: 1 });
    expect(parseNumberWords(['and', 'five'])).to.equal(undefined);
  });
});

import { expect } from 'chai';
import { categoricalFromText, editDistance } from '../../../src/understanding/nlu/slot-values/index.js';

const VALUES = ['Savings', 'Checking', 'Credit Card', 'Gold', 'Gold Plus'];

describe('categorical slots from free text', () => {
  const cases: [string, string][] = [
    ['Savings', 'Savings'],
    ['savings', 'Savings'],
    ['SAVINGS.', 'Savings'],
    ['credit-card', 'Credit Card'],
    ['the savings one', 'Savings'],
    ['my credit card please', 'Credit Card'],
    ['savngs', 'Savings'],
    ['chequing', 'Checking'],
    ['not savings, checking', 'Checking'],
    ['gold plus please', 'Gold Plus'],
    ['just gold', 'Gold'],
  ];
  for (const [text, value] of cases) {
    it(`reads "${text}" as ${value}`, () => {
      expect(categoricalFromText(VALUES, text)).to.equal(value);
    });
  }

  const unclear = [
    'what is the weather',
    'savings or checking',
    'I was told so',
    'not the savings one',
    '',
    'platinum',
  ];
  for (const text of unclear) {
    it(`leaves "${text}" unfilled`, () => {
      expect(categoricalFromText(VALUES, text)).to.equal(undefined);
    });
  }

  it('counts adjacent swaps as one edit', () => {
    expect(editDistance('svaings', 'savings')).to.equal(1);
    expect(editDistance('kitten', 'sitting')).to.equal(3);
  });
});

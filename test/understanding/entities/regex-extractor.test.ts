import { expect } from 'chai';
import { RegexEntityExtractor } from '../../../src/understanding/nlu/entities/index.js';
import { nlu, summary } from './helpers.js';

const data = nlu(`
  nlu:
    - intent: check_balance
      examples: |
        - what is the balance of [savings](account)
        - show account [1234567890](account_number)
        - [ZIP 12345](zipcode) please
    - regex: account_number
      examples: |
        - \\d{10}
    - regex: zipcode
      examples: |
        - (?i)zip \\d{5}
    - regex: unused_pattern
      examples: |
        - \\d{3}
    - lookup: account
      examples: |
        - savings
        - checking
        - credit card
    - lookup: city
      examples: |
        - Berlin
`);

describe('RegexEntityExtractor', () => {
  const extractor = RegexEntityExtractor.fromNluData(data);

  it('uses only tables named after an entity annotated in the examples', () => {
    const text = 'move 123 to Berlin from 9876543210';
    expect(summary(text, extractor?.extract(text) ?? [])).to.deep.equal([
      { entity: 'account_number', value: '9876543210', text: '9876543210' },
    ]);
  });

  it('matches lookup entries case-insensitively, on word boundaries only', () => {
    const text = 'My Credit Card and the CHECKING account, not checkingx';
    expect(summary(text, extractor?.extract(text) ?? []).map((e) => e.value)).to.deep.equal([
      'Credit Card',
      'CHECKING',
    ]);
  });

  it('does not match a lookup entry inside a longer word', () => {
    expect(extractor?.extract('my savingsaccount')).to.deep.equal([]);
  });

  it('reads Python inline flags and reports offsets, confidence 1 and its name', () => {
    const [found] = extractor?.extract('area zip 10115 thanks') ?? [];
    expect(found).to.deep.include({
      entity: 'zipcode',
      value: 'zip 10115',
      start: 5,
      end: 14,
      confidence: 1,
      extractor: 'RegexEntityExtractor',
    });
  });

  it('is absent when no table is named after an annotated entity', () => {
    const plain = nlu(`
      nlu:
        - intent: greet
          examples: |
            - hi
        - lookup: city
          examples: |
            - Paris
    `);
    expect(RegexEntityExtractor.fromNluData(plain)).to.equal(undefined);
  });

  it('lists patterns that do not compile instead of throwing', () => {
    const broken = new RegexEntityExtractor({
      tables: [{ name: 'x', kind: 'regex', patterns: ['(unclosed', 'ok'] }],
    });
    expect(broken.invalidPatterns).to.deep.equal([{ name: 'x', pattern: '(unclosed' }]);
    expect(broken.extract('ok then').map((e) => e.value)).to.deep.equal(['ok']);
  });
});

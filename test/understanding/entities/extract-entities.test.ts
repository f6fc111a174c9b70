import { expect } from 'chai';
import {
  extractEntities,
  resolveOverlaps,
  trainEntityExtractors,
} from '../../../src/understanding/nlu/entities/index.js';
import type { ExtractedEntity, ExtractorName } from '../../../src/understanding/nlu/entities/index.js';
import { REFERENCE_DATE, nlu, summary } from './helpers.js';

const data = nlu(`
  nlu:
    - intent: transfer
      examples: |
        - send 50 to [John](person)
        - pay [Mary](person) 20 dollars
        - transfer money to [Bob](person)
        - give [Alice](person) 100 from my [savings](account) account
        - use my [checking](account) account
        - pay it from [credit card](account)
        - send money to [Ian](person) from my [savings](account) account next week
        - move 30 from [checking](account) to [Zoe](person) tomorrow
        - transfer it on friday from my [checking](account) account
        - reference [1234567890](reference)
        - please send 10 to [Omar](person) today
        - I want to send money
        - can I pay someone from my account
    - intent: greet
      examples: |
        - hello
    - regex: reference
      examples: |
        - \\d{10}
    - lookup: account
      examples: |
        - savings
        - checking
        - credit card
    - synonym: savings
      examples: |
        - savings account
        - rainy day fund
    - synonym: checking
      examples: |
        - Checking
`);

const candidate = (extractor: ExtractorName, start: number, end: number, entity = 'x'): ExtractedEntity => ({
  entity,
  value: `${start}-${end}`,
  start,
  end,
  confidence: 1,
  extractor,
});

describe('extractEntities', () => {
  const model = trainEntityExtractors(data);
  const extract = (text: string) =>
    summary(text, extractEntities(text, model, { referenceDate: REFERENCE_DATE }));

  it('trains the extractors the data calls for', () => {
    expect(Object.keys(model).sort()).to.deep.equal(['builtins', 'regex', 'synonyms', 'tagger']);
  });

  it('combines regex, trained and built-in entities in text order', () => {
    const text = 'send $30 to John tomorrow from my checking account';
    expect(extract(text)).to.deep.equal([
      { entity: 'amount', value: 30, text: '$30' },
      { entity: 'person', value: 'John', text: 'John' },
      { entity: 'date', value: '2025-12-11', text: 'tomorrow' },
      { entity: 'account', value: 'checking', text: 'checking' },
    ]);
  });

  it('keeps the longest of overlapping spans', () => {
    expect(extract('on 12 December 2025')).to.deep.equal([
      { entity: 'date', value: '2025-12-12', text: '12 December 2025' },
    ]);
  });

  it('prefers regex over built-in numbers for the same span', () => {
    const found = extractEntities('reference 9876543210', model).filter((e) => e.entity !== 'date');
    expect(found.map((e) => [e.entity, e.extractor])).to.deep.equal([['reference', 'RegexEntityExtractor']]);
  });

  it('applies synonyms last, to whichever extractor found the entity', () => {
    const text = 'take it from the rainy day fund';
    const model2 = trainEntityExtractors(
      nlu(`
        nlu:
          - intent: x
            examples: |
              - from the [savings account](account)
          - lookup: account
            examples: |
              - rainy day fund
          - synonym: savings
            examples: |
              - savings account
              - rainy day fund
      `),
    );
    const [found] = extractEntities(text, model2);
    expect(found).to.deep.include({
      entity: 'account',
      value: 'savings',
      processors: ['EntitySynonymMapper'],
    });
    expect(text.slice(found?.start, found?.end)).to.equal('rainy day fund');
  });

  it('runs only the requested extractors', () => {
    const found = extractEntities('pay John $5 from savings', model, {
      extractors: ['BuiltinEntityExtractor'],
    });
    expect(found.map((e) => e.entity)).to.deep.equal(['amount']);
  });

  it('can be trained without built-ins', () => {
    const bare = trainEntityExtractors(data, { builtins: false });
    expect(bare.builtins).to.equal(undefined);
    expect(
      extractEntities('tomorrow at $5', bare).filter((e) => e.entity === 'date' || e.entity === 'amount'),
    ).to.deep.equal([]);
  });
});

describe('resolveOverlaps', () => {
  it('orders equal spans by regex, then trained, then built-in', () => {
    const builtin = candidate('BuiltinEntityExtractor', 0, 4);
    const trained = candidate('PerceptronEntityExtractor', 1, 5);
    const regex = candidate('RegexEntityExtractor', 2, 6);
    expect(resolveOverlaps([builtin, trained, regex]).map((e) => e.extractor)).to.deep.equal([
      'RegexEntityExtractor',
    ]);
    expect(resolveOverlaps([builtin, trained]).map((e) => e.extractor)).to.deep.equal([
      'PerceptronEntityExtractor',
    ]);
  });

  it('lets a longer built-in span beat a shorter regex span', () => {
    const kept = resolveOverlaps([
      candidate('RegexEntityExtractor', 0, 3),
      candidate('BuiltinEntityExtractor', 0, 8),
    ]);
    expect(kept.map((e) => e.extractor)).to.deep.equal(['BuiltinEntityExtractor']);
  });

  it('keeps entities that do not overlap, sorted by position', () => {
    const kept = resolveOverlaps([
      candidate('BuiltinEntityExtractor', 5, 7),
      candidate('RegexEntityExtractor', 0, 3),
    ]);
    expect(kept.map((e) => e.start)).to.deep.equal([0, 5]);
  });
});

import { expect } from 'chai';
import { EntitySynonymMapper } from '../../../src/understanding/nlu/entities/index.js';
import type { ExtractedEntity } from '../../../src/understanding/nlu/entities/index.js';
import { nlu } from './helpers.js';

const data = nlu(`
  nlu:
    - intent: travel
      examples: |
        - fly to [NYC](city:New York)
        - fly to [Berlin](city)
    - synonym: savings
      examples: |
        - savings account
        - Saving
`);

const found = (value: unknown): ExtractedEntity => ({
  entity: 'x',
  value,
  start: 0,
  end: 1,
  confidence: 1,
  extractor: 'RegexEntityExtractor',
});

describe('EntitySynonymMapper', () => {
  const mapper = EntitySynonymMapper.fromNluData(data);

  it('maps surface forms of synonym tables to their value, ignoring case', () => {
    const [mapped] = mapper.apply([found('SAVINGS ACCOUNT')]);
    expect(mapped?.value).to.equal('savings');
    expect(mapped?.processors).to.deep.equal(['EntitySynonymMapper']);
  });

  it('learns synonyms from annotations whose value differs from their text', () => {
    expect(mapper.apply([found('nyc')])[0]?.value).to.equal('New York');
  });

  it('leaves other values, and values that are not strings, unchanged', () => {
    const entities = [found('Berlin'), found(12)];
    expect(mapper.apply(entities)).to.deep.equal(entities);
  });

  it('is not confused by keys such as __proto__', () => {
    const odd = new EntitySynonymMapper({ synonyms: { ['__proto__']: 'proto', constructor: 'c' } });
    expect(odd.apply([found('__proto__'), found('toString')]).map((e) => e.value)).to.deep.equal([
      'proto',
      'toString',
    ]);
  });
});

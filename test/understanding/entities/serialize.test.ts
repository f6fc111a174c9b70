import { expect } from 'chai';
import {
  EntityError,
  deserializeEntityModel,
  extractEntities,
  serializeEntityModel,
  trainEntityExtractors,
} from '../../../src/understanding/nlu/entities/index.js';
import { REFERENCE_DATE, nlu } from './helpers.js';

const data = nlu(`
  nlu:
    - intent: book
      examples: |
        - fly from [Berlin]{"entity": "city", "role": "departure"} to [Paris]{"entity": "city", "role": "destination"}
        - from [Rome]{"entity": "city", "role": "departure"} to [Oslo]{"entity": "city", "role": "destination"}
        - to [NYC](city:New York) please
        - ticket number [AB-1234](ticket)
    - regex: ticket
      examples: |
        - [A-Z]{2}-\\d{4}
    - synonym: Berlin
      examples: |
        - berlin city
`);

describe('entity model serialisation', () => {
  const model = trainEntityExtractors(data, {
    builtins: { dimensions: ['date', 'amount'], dateOrder: 'MDY' },
  });
  const texts = ['fly from Berlin to NYC on 03/04/2026', 'ticket CD-9876 for $40', 'from Oslo to Rome'];

  it('survives a JSON round trip with identical extractions', () => {
    const restored = deserializeEntityModel(JSON.parse(JSON.stringify(serializeEntityModel(model))));
    for (const text of texts) {
      const options = { referenceDate: REFERENCE_DATE };
      expect(extractEntities(text, restored, options)).to.deep.equal(extractEntities(text, model, options));
    }
    expect(serializeEntityModel(restored)).to.deep.equal(serializeEntityModel(model));
  });

  it('records the format, version and settings', () => {
    const json = serializeEntityModel(model);
    expect(json).to.deep.include({ format: 'parley.entities', version: 1 });
    expect(json.builtins).to.deep.equal({ dimensions: ['date', 'amount'], dateOrder: 'MDY' });
    expect(json.synonyms).to.deep.equal({ nyc: 'New York', 'berlin city': 'Berlin' });
  });

  it('refuses malformed input, naming the bad field', () => {
    const good = JSON.parse(JSON.stringify(serializeEntityModel(model))) as Record<string, unknown>;
    const bad = [
      { ...good, format: 'other' },
      { ...good, version: 2 },
      { ...good, synonyms: { a: 1 } },
      { ...good, tagger: { ...(good['tagger'] as object), labels: [] } },
      'not a model',
    ];
    for (const json of bad) {
      expect(() => deserializeEntityModel(json))
        .to.throw(EntityError)
        .with.property('code', 'NLU_BAD_MODEL');
    }
    expect(() => deserializeEntityModel({ ...good, version: 2 })).to.throw(/model\.version/);
  });
});

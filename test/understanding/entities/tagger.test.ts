import { expect } from 'chai';
import { PerceptronEntityExtractor } from '../../../src/understanding/nlu/entities/index.js';
import { nlu, summary } from './helpers.js';

const flights = nlu(`
  nlu:
    - intent: book_flight
      examples: |
        - fly from [Berlin]{"entity": "city", "role": "departure"} to [Paris]{"entity": "city", "role": "destination"}
        - I want to go from [London]{"entity": "city", "role": "departure"} to [Rome]{"entity": "city", "role": "destination"}
        - book a flight to [Madrid]{"entity": "city", "role": "destination"} from [Lisbon]{"entity": "city", "role": "departure"}
        - from [Oslo]{"entity": "city", "role": "departure"} to [Vienna]{"entity": "city", "role": "destination"} please
        - a ticket to [Prague]{"entity": "city", "role": "destination"}
        - leaving from [Dublin]{"entity": "city", "role": "departure"}
        - travel to [New York]{"entity": "city", "role": "destination"} from [Boston]{"entity": "city", "role": "departure"}
        - flights from [Zurich]{"entity": "city", "role": "departure"} to [Athens]{"entity": "city", "role": "destination"}
        - 2 adults from [Warsaw]{"entity": "city", "role": "departure", "group": "1"}
    - intent: greet
      examples: |
        - hello there
        - good morning
        - hi, how are you
`);

const examples = flights.intents.flatMap((intent) => intent.examples);

describe('PerceptronEntityExtractor', () => {
  const tagger = PerceptronEntityExtractor.train(examples);

  it('learns one label per entity, role and group seen in the annotations', () => {
    expect(tagger?.labels).to.deep.equal([
      { entity: 'city', role: 'departure', group: '1' },
      { entity: 'city', role: 'departure' },
      { entity: 'city', role: 'destination' },
    ]);
  });

  it('tags the training examples back with their roles', () => {
    const text = 'fly from Berlin to Paris';
    expect(summary(text, tagger?.extract(text) ?? [])).to.deep.equal([
      { entity: 'city', value: 'Berlin', text: 'Berlin', role: 'departure' },
      { entity: 'city', value: 'Paris', text: 'Paris', role: 'destination' },
    ]);
  });

  it('tells the roles of unseen city names apart by their context', () => {
    const text = 'fly from Amsterdam to Brussels';
    expect(summary(text, tagger?.extract(text) ?? []).map((e) => [e.value, e.role])).to.deep.equal([
      ['Amsterdam', 'departure'],
      ['Brussels', 'destination'],
    ]);
  });

  it('keeps multi-word entities together', () => {
    const text = 'travel to New York from Boston';
    expect((tagger?.extract(text) ?? []).map((e) => e.value)).to.deep.equal(['New York', 'Boston']);
  });

  it('finds nothing in sentences without entities', () => {
    expect(tagger?.extract('hello there, good morning')).to.deep.equal([]);
  });

  it('reports a confidence between 0 and 1 and its extractor name', () => {
    for (const entity of tagger?.extract('from Oslo to Vienna') ?? []) {
      expect(entity.confidence).to.be.within(0, 1);
      expect(entity.extractor).to.equal('PerceptronEntityExtractor');
    }
  });

  it('is deterministic for a seed', () => {
    const again = PerceptronEntityExtractor.train(examples);
    expect(JSON.stringify(again?.toJSON())).to.equal(JSON.stringify(tagger?.toJSON()));
  });

  it('uses lookup membership as a feature', () => {
    const data = nlu(`
      nlu:
        - intent: order
          examples: |
            - I want a [margherita](pizza)
            - one [hawaii](pizza) please
            - get me a [diavola](pizza) now
            - I want a coffee
            - one tea please
        - lookup: pizza
          examples: |
            - margherita
            - hawaii
            - diavola
            - capricciosa
    `);
    const lookupTagger = PerceptronEntityExtractor.train(
      data.intents.flatMap((intent) => intent.examples),
      { patterns: [{ name: 'pizza', kind: 'lookup', patterns: data.lookups[0]?.examples ?? [] }] },
    );
    expect((lookupTagger?.extract('I want a capricciosa') ?? []).map((e) => e.value)).to.deep.equal([
      'capricciosa',
    ]);
  });

  it('is absent when no example is annotated', () => {
    expect(PerceptronEntityExtractor.train([{ text: 'hello', entities: [] }])).to.equal(undefined);
  });
});

describe('PerceptronEntityExtractor and capitals that start a sentence', () => {
  // names are the title-case words of the data; its sentences start in lower case, as typed in chat
  const payments = nlu(`
    nlu:
      - intent: transfer_money
        examples: |
          - send [Tom](recipient) some money
          - send money to [Julia](recipient)
          - transfer [50](amount) dollars to [Alice](recipient)
          - send [35](amount) dollars to [Valeria](recipient)
          - pay [Marcus](recipient) [120](amount)
          - give [Peter](recipient) [60](amount) bucks
          - wire [75](amount) dollars to [Jordan](recipient)
          - [Grace](recipient) needs [35](amount) dollars from me
          - please send [Anna](recipient) [80](amount)
          - move [20](amount) dollars to [Sam](recipient)
  `);
  const tagger = PerceptronEntityExtractor.train(payments.intents.flatMap((intent) => intent.examples));
  const recipients = (text: string) =>
    (tagger?.extract(text) ?? []).filter((e) => e.entity === 'recipient').map((e) => e.value);

  for (const text of [
    'Give 120 dollars to Marcus',
    'Send 120 dollars to Marcus',
    'Wire 40 dollars to Marcus',
    'Thanks. Move 20 dollars to Marcus',
  ]) {
    it(`does not read the verb of "${text}" as a name`, () => {
      expect(recipients(text)).to.deep.equal(['Marcus']);
    });
  }

  it('still finds a name that starts the sentence, by its context', () => {
    expect(recipients('Grace needs 50 dollars from me')).to.deep.equal(['Grace']);
  });

  it('keeps a word written in capitals as it is', () => {
    expect(recipients('send money to ANNA')).to.deep.equal(['ANNA']);
  });
});

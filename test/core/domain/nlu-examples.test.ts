import { expect } from 'chai';
import {
  exampleLines,
  nluDataFromDocument,
  parseAnnotatedExample,
} from '../../../src/core/domain/nlu-examples.js';
import { EMPTY_NLU_DATA } from '../../../src/core/domain/nlu-data.js';

describe('NLU training examples (Rasa nlu: blocks)', () => {
  describe('the examples of a block', () => {
    it('reads the "- " lines of a block string, trimmed, and skips every other line', () => {
      const block = '- hello there \n  - hi\n\nnot an example\n-missing space\n-   \n-   bye';
      expect(exampleLines(block)).to.deep.equal(['hello there', 'hi', 'bye']);
    });

    it('reads a list of strings or of {text} items', () => {
      expect(exampleLines(['hello', { text: 'hi there' }, { metadata: 1 }, 42])).to.deep.equal([
        'hello',
        'hi there',
        '',
        '42',
      ]);
    });

    it('reads nothing from a missing or other value', () => {
      expect(exampleLines(undefined)).to.deep.equal([]);
      expect(exampleLines(7)).to.deep.equal([]);
      expect(exampleLines({ text: '- hello' })).to.deep.equal([]);
    });
  });

  describe('entity annotations', () => {
    it('leaves an example without annotations as it is', () => {
      expect(parseAnnotatedExample('book a table [for] two')).to.deep.equal({
        text: 'book a table [for] two',
        entities: [],
        badAnnotations: [],
      });
    });

    it('reads [text](entity) as a span whose value is the text', () => {
      expect(parseAnnotatedExample('fly to [Berlin](city) today')).to.deep.equal({
        text: 'fly to Berlin today',
        entities: [{ start: 7, end: 13, entity: 'city', value: 'Berlin' }],
        badAnnotations: [],
      });
    });

    it('reads [text](entity:value) as a span with a synonym value', () => {
      expect(parseAnnotatedExample('[NYC](city:New York) please').entities).to.deep.equal([
        { start: 0, end: 3, entity: 'city', value: 'New York' },
      ]);
    });

    it('keeps everything after the first colon as the value, colons included, as Rasa does', () => {
      expect(parseAnnotatedExample('at [noon](time:12:00:00) sharp')).to.deep.equal({
        text: 'at noon sharp',
        entities: [{ start: 3, end: 7, entity: 'time', value: '12:00:00' }],
        badAnnotations: [],
      });
      expect(parseAnnotatedExample('[x](a:b:c)').entities).to.deep.equal([
        { start: 0, end: 1, entity: 'a', value: 'b:c' },
      ]);
    });

    // Rasa's pattern needs an entity name before the colon and a value after it; it leaves other markup
    // in the training text untouched and reports nothing
    it('leaves markup with an empty entity, value or object in the text as written', () => {
      for (const markup of ['[x](:v)', '[x](a:)', '[x]()', '[x](:)', '[x]{}']) {
        expect(parseAnnotatedExample(`say ${markup} now`), markup).to.deep.equal({
          text: `say ${markup} now`,
          entities: [],
          badAnnotations: [],
        });
      }
    });

    it('measures each span in the text without markup, several annotations in one example', () => {
      const example = parseAnnotatedExample('from [Rome](city) to [Oslo](city)');
      expect(example.text).to.equal('from Rome to Oslo');
      expect(example.entities).to.deep.equal([
        { start: 5, end: 9, entity: 'city', value: 'Rome' },
        { start: 13, end: 17, entity: 'city', value: 'Oslo' },
      ]);
      for (const span of example.entities)
        expect(example.text.slice(span.start, span.end)).to.equal(span.value);
    });

    it('reads [text]{"entity": ..., "role": ..., "group": ..., "value": ...}', () => {
      const example = parseAnnotatedExample(
        'from [Rome]{"entity": "city", "role": "departure", "group": "1", "value": "Roma"} on',
      );
      expect(example).to.deep.equal({
        text: 'from Rome on',
        entities: [{ start: 5, end: 9, entity: 'city', value: 'Roma', role: 'departure', group: '1' }],
        badAnnotations: [],
      });
    });

    it('takes the text as the value of a JSON annotation without a string value, and no role or group', () => {
      const example = parseAnnotatedExample('[two]{"entity": "count", "value": 2, "role": 3, "group": 7}');
      expect(example.entities).to.deep.equal([{ start: 0, end: 3, entity: 'count', value: 'two' }]);
      expect(example.entities[0]).not.to.have.any.keys('role', 'group');
    });

    it('reads [text][{...}, {...}] as several entities on one span', () => {
      const example = parseAnnotatedExample(
        'fly to [Berlin][{"entity": "city"}, {"entity": "place", "role": "to", "value": "BER"}] now',
      );
      expect(example).to.deep.equal({
        text: 'fly to Berlin now',
        entities: [
          { start: 7, end: 13, entity: 'city', value: 'Berlin' },
          { start: 7, end: 13, entity: 'place', value: 'BER', role: 'to' },
        ],
        badAnnotations: [],
      });
    });

    it('takes a bracketed word right after [text] as an entity list, even one with no objects, as Rasa does', () => {
      expect(parseAnnotatedExample('for [two][people] tonight')).to.deep.equal({
        text: 'for two tonight',
        entities: [],
        badAnnotations: [],
      });
    });

    it('reports an entity list with an object it cannot read, keeping the text', () => {
      const example = parseAnnotatedExample('[x][{"entity": "a"}, {"role": "b"}] now');
      expect(example.text).to.equal('x now');
      expect(example.entities).to.deep.equal([]);
      expect(example.badAnnotations).to.deep.equal(['[x][{"entity": "a"}, {"role": "b"}]']);
    });

    it('keeps an annotation it cannot read as plain words and reports it', () => {
      for (const annotation of ['[x]{"role": "a"}', '[x]{not json}', '[x]{"entity": 1}']) {
        const example = parseAnnotatedExample(`say ${annotation} now`);
        expect(example.text, annotation).to.equal('say x now');
        expect(example.entities, annotation).to.deep.equal([]);
        expect(example.badAnnotations, annotation).to.deep.equal([annotation]);
      }
    });

    it('reads the good annotations of an example that also has a bad one', () => {
      const example = parseAnnotatedExample('[a]{bad} and [b](letter)');
      expect(example.text).to.equal('a and b');
      expect(example.entities).to.deep.equal([{ start: 6, end: 7, entity: 'letter', value: 'b' }]);
      expect(example.badAnnotations).to.deep.equal(['[a]{bad}']);
    });
  });

  describe('a whole nlu: document', () => {
    it('reads intents with their annotated examples, merging blocks of the same intent', () => {
      const data = nluDataFromDocument({
        nlu: [
          { intent: 'greet', examples: '- hi\n- hello' },
          { intent: 'inform', examples: '- to [Paris](city)' },
          { intent: 'greet', examples: '- hey' },
        ],
      });
      expect(data.intents).to.deep.equal([
        {
          intent: 'greet',
          examples: [
            { text: 'hi', entities: [] },
            { text: 'hello', entities: [] },
            { text: 'hey', entities: [] },
          ],
        },
        {
          intent: 'inform',
          examples: [{ text: 'to Paris', entities: [{ start: 3, end: 8, entity: 'city', value: 'Paris' }] }],
        },
      ]);
    });

    it('reads synonyms, regexes and lookup tables with their examples as written', () => {
      const data = nluDataFromDocument({
        nlu: [
          { synonym: 'New York', examples: '- NYC\n- [big] apple' },
          { regex: 'zipcode', examples: '- [0-9]{5}' },
          { lookup: 'city', examples: ['Berlin', 'Rome'] },
        ],
      });
      expect(data).to.deep.equal({
        intents: [],
        synonyms: [{ name: 'New York', examples: ['NYC', '[big] apple'] }],
        regexes: [{ name: 'zipcode', examples: ['[0-9]{5}'] }],
        lookups: [{ name: 'city', examples: ['Berlin', 'Rome'] }],
      });
    });

    it('skips items that are not blocks and names that are not strings', () => {
      const data = nluDataFromDocument({
        nlu: ['greet', null, [1], { intent: 3, examples: '- x' }, { synonym: ['a'], examples: '- y' }],
      });
      expect(data).to.deep.equal(EMPTY_NLU_DATA);
    });

    it('reads nothing from a document without an nlu list', () => {
      for (const document of [undefined, null, 'nlu', [], { nlu: 'greet' }, { rules: [] }])
        expect(nluDataFromDocument(document), JSON.stringify(document)).to.deep.equal(EMPTY_NLU_DATA);
    });
  });
});

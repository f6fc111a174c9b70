import { expect } from 'chai';
import {
  ClassifierError,
  readCsvExamples,
  readNluYamlExamples,
} from '../../../src/understanding/nlu/classifier/index.js';

describe('classifier data readers', () => {
  it('reads CSV with a text and a category column, quoted commas, quotes and line breaks', () => {
    const csv =
      '\ufefftext,category\r\n' +
      'I am still waiting on my card?,card_arrival\r\n' +
      '"Hello, my ""new"" card\nhas not come",card_arrival\r\n' +
      '\r\n' +
      'What is the rate?,exchange_rate';
    expect(readCsvExamples(csv)).to.deep.equal([
      { text: 'I am still waiting on my card?', intent: 'card_arrival' },
      { text: 'Hello, my "new" card has not come', intent: 'card_arrival' },
      { text: 'What is the rate?', intent: 'exchange_rate' },
    ]);
  });

  it('accepts the columns in any order and an intent column', () => {
    expect(readCsvExamples('intent,text\ngreet,hi\n')).to.deep.equal([{ text: 'hi', intent: 'greet' }]);
  });

  it('refuses CSV without a text or a label column', () => {
    expect(() => readCsvExamples('sentence_id,words\n1,hi\n', 'x.csv'))
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_BAD_DATA_FILE');
  });

  it('reads the intent examples of Rasa nlu.yml, reducing entity markup to its text', () => {
    const yaml = [
      'version: "3.1"',
      'nlu:',
      '- intent: transfer_money',
      '  examples: |',
      '    - send [50](amount) to [John]{"entity": "person", "role": "payee"}',
      '    - pay my [sister](person:Anna)',
      '- synonym: savings',
      '  examples: |',
      '    - savings account',
      '- intent: greet',
      '  examples:',
      '    - hello',
      '    - text: good morning',
    ].join('\n');
    expect(readNluYamlExamples(yaml)).to.deep.equal([
      { text: 'send 50 to John', intent: 'transfer_money' },
      { text: 'pay my sister', intent: 'transfer_money' },
      { text: 'hello', intent: 'greet' },
      { text: 'good morning', intent: 'greet' },
    ]);
  });

  it('reads a file that is empty or holds only comments as no examples, as Rasa does', () => {
    expect(readNluYamlExamples('')).to.deep.equal([]);
    expect(readNluYamlExamples('# nlu:\n#   - intent: greet\n\n')).to.deep.equal([]);
  });

  it('reports YAML that does not parse', () => {
    expect(() => readNluYamlExamples('nlu: [', 'bad.yml'))
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_BAD_DATA_FILE');
  });
});

import { expect } from 'chai';
import type { NluInterpreter } from '../../../src/understanding/nlu/nlu-command-generator.js';
import { NluCommandGenerator } from '../../../src/understanding/nlu/nlu-command-generator.js';
import { bankAssistant, emptyState, engineFor } from '../llm/helpers.js';

const bank = bankAssistant();

function recordingInterpreter(seen: string[]): NluInterpreter {
  return {
    interpret(text) {
      seen.push(text);
      return { prediction: { intent: null, confidence: 0, ranking: [] }, entities: [] };
    },
  };
}

// Rasa's MessageProcessor._sanitize_message: `^[/\s]+` removed, then strip(); the NLU pipeline reads that
describe('offline NLU: slash text that is no payload', () => {
  it('is read without its leading slashes and white space, and without trailing white space', async () => {
    const seen: string[] = [];
    const generator = new NluCommandGenerator({ interpreter: recordingInterpreter(seen) });
    for (const text of ['/ / hello ', ' /SetSlots(recipient=)', '/SetSlots(nonexistent=1)']) {
      const understood = await generator.understand({
        text,
        state: emptyState(bank),
        engine: engineFor(bank),
      });
      expect(understood.parseData.text, text).to.equal(seen.at(-1));
    }
    expect(seen).to.deep.equal(['hello', 'SetSlots(recipient=)', 'SetSlots(nonexistent=1)']);
  });

  it('is an empty message when nothing but slashes and white space was sent', async () => {
    const generator = new NluCommandGenerator({ interpreter: recordingInterpreter([]) });
    const understood = await generator.understand({
      text: ' / ',
      state: emptyState(bank),
      engine: engineFor(bank),
    });
    expect(understood.commands).to.deep.equal([
      { command: 'error', error_type: 'rasa_internal_error_user_input_empty' },
    ]);
  });

  it('reads other text as sent, white space included', async () => {
    const seen: string[] = [];
    const generator = new NluCommandGenerator({ interpreter: recordingInterpreter(seen) });
    await generator.understand({ text: ' send 5 / 2 ', state: emptyState(bank), engine: engineFor(bank) });
    expect(seen).to.deep.equal([' send 5 / 2 ']);
  });
});

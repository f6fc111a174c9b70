import { expect } from 'chai';
import { parseCommand } from '../../../src/core/commands/index.js';

// parseCommand reads commands in the dict form Rasa stores in `parse_data.commands` (and e2e test cases
// give as `commands:`): every command by its name, optional fields only when they are of the right type.
describe('reading a serialised command', () => {
  it('reads every command Rasa serialises, by its name', () => {
    const table: [unknown, unknown][] = [
      [
        { command: 'start flow', flow: 'transfer_money' },
        { command: 'start flow', flow: 'transfer_money' },
      ],
      [
        { command: 'set slot', name: 'amount', value: 50, extractor: 'NLU' },
        { command: 'set slot', name: 'amount', value: 50, extractor: 'NLU' },
      ],
      [{ command: 'cancel flow' }, { command: 'cancel flow' }],
      [
        { command: 'clarify', options: ['transfer_money', 'check_balance'] },
        { command: 'clarify', options: ['transfer_money', 'check_balance'] },
      ],
      [{ command: 'chitchat' }, { command: 'chitchat' }],
      [{ command: 'knowledge' }, { command: 'knowledge' }],
      [{ command: 'human handoff' }, { command: 'human handoff' }],
      [{ command: 'skip question' }, { command: 'skip question' }],
      [
        { command: 'cannot handle', reason: 'cannot_handle_chitchat' },
        { command: 'cannot handle', reason: 'cannot_handle_chitchat' },
      ],
      [
        { command: 'correct slot', corrected_slots: [{ name: 'amount', value: 70 }] },
        { command: 'correct slot', corrected_slots: [{ name: 'amount', value: 70 }] },
      ],
      [{ command: 'repeat' }, { command: 'repeat' }],
      [{ command: 'restart' }, { command: 'restart' }],
      [{ command: 'session start' }, { command: 'session start' }],
      [{ command: 'change flow' }, { command: 'change flow' }],
      [
        { command: 'error', error_type: 'rasa_internal_error_user_input_empty', info: { length: 0 } },
        { command: 'error', error_type: 'rasa_internal_error_user_input_empty', info: { length: 0 } },
      ],
    ];
    for (const [raw, expected] of table)
      expect(parseCommand(raw), JSON.stringify(raw)).to.deep.equal(expected);
  });

  it('refuses what is not a command dict: other values, an unknown or missing name', () => {
    for (const raw of [
      null,
      undefined,
      'start flow',
      42,
      [{ command: 'cancel flow' }],
      {},
      { command: 7 },
      { command: 'StartFlow', flow: 'x' },
      { command: 'toString' },
    ])
      expect(parseCommand(raw), JSON.stringify(raw)).to.equal(undefined);
  });

  it('refuses a StartFlow without a flow id and a SetSlot without a slot name', () => {
    expect(parseCommand({ command: 'start flow' })).to.equal(undefined);
    expect(parseCommand({ command: 'start flow', flow: 3 })).to.equal(undefined);
    expect(parseCommand({ command: 'set slot', value: 'Ann' })).to.equal(undefined);
    expect(parseCommand({ command: 'set slot', name: ['recipient'], value: 'Ann' })).to.equal(undefined);
  });

  it('reads a SetSlot without a value as setting the slot to null, and keeps only known extractors', () => {
    expect(parseCommand({ command: 'set slot', name: 'recipient' })).to.deep.equal({
      command: 'set slot',
      name: 'recipient',
      value: null,
    });
    for (const extractor of ['LLM', 'NLU', 'CommandPayloadReader', 'CUSTOM'])
      expect(parseCommand({ command: 'set slot', name: 'a', value: false, extractor })).to.deep.equal({
        command: 'set slot',
        name: 'a',
        value: false,
        extractor,
      });
    expect(parseCommand({ command: 'set slot', name: 'a', value: 0, extractor: 'Regex' })).to.deep.equal({
      command: 'set slot',
      name: 'a',
      value: 0,
    });
  });

  it('reads a CannotHandle without a (textual) reason as having none', () => {
    expect(parseCommand({ command: 'cannot handle' })).to.deep.equal({ command: 'cannot handle' });
    expect(parseCommand({ command: 'cannot handle', reason: 3 })).to.deep.equal({ command: 'cannot handle' });
  });

  it('keeps only the textual options of a Clarify, and none when options is not a list', () => {
    expect(parseCommand({ command: 'clarify', options: ['a', 1, null, 'b'] })).to.deep.equal({
      command: 'clarify',
      options: ['a', 'b'],
    });
    expect(parseCommand({ command: 'clarify', options: 'a' })).to.deep.equal({
      command: 'clarify',
      options: [],
    });
    expect(parseCommand({ command: 'clarify' })).to.deep.equal({ command: 'clarify', options: [] });
  });

  it('keeps the named corrected slots of a CorrectSlots, a missing value being null', () => {
    expect(
      parseCommand({
        command: 'correct slot',
        corrected_slots: [
          { name: 'amount', value: 0 },
          { name: 'recipient' },
          { value: 'no name' },
          'amount',
          null,
          ['city', 'Paris'],
          { name: 5, value: 'x' },
        ],
      }),
    ).to.deep.equal({
      command: 'correct slot',
      corrected_slots: [
        { name: 'amount', value: 0 },
        { name: 'recipient', value: null },
      ],
    });
    expect(parseCommand({ command: 'correct slot', corrected_slots: { amount: 70 } })).to.deep.equal({
      command: 'correct slot',
      corrected_slots: [],
    });
  });

  it("gives an Error without a (textual) type Rasa's default type, and keeps its info only when it is a dict", () => {
    expect(parseCommand({ command: 'error' })).to.deep.equal({
      command: 'error',
      error_type: 'rasa_internal_error_default',
    });
    expect(parseCommand({ command: 'error', error_type: 1, info: ['x'] })).to.deep.equal({
      command: 'error',
      error_type: 'rasa_internal_error_default',
    });
    expect(parseCommand({ command: 'error', error_type: 'e', info: null })).to.deep.equal({
      command: 'error',
      error_type: 'e',
    });
    expect(parseCommand({ command: 'error', error_type: 'e', info: 'too long' })).to.deep.equal({
      command: 'error',
      error_type: 'e',
    });
  });
});

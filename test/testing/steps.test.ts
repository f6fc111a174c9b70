import { expect } from 'chai';
import { action, bot, flowStarted, listen, only, run, sessionStarted, slot, yaml } from './helpers.js';

const TRANSFER = yaml`
  test_cases:
    - test_case: transfer
      steps:
        - user: I want to transfer money
        - utter: utter_transfer_money_understand
        - bot: Which account would you like to transfer money from?
        - user: "55"
        - slot_was_set:
            - amount: 55.0
        - slot_was_not_set:
            - payee_name
        - utter: utter_ask_timing
`;

const HAPPY_REPLIES = {
  'I want to transfer money': [
    flowStarted('transfer_money'),
    bot('I understand.', 'utter_transfer_money_understand'),
    bot('Which account would you like to transfer money from?', 'utter_ask_account_from'),
  ],
  '55': [slot('amount', 55), bot('When?', 'utter_ask_timing'), bot('Anything else?', 'utter_extra')],
};

describe('checking test cases written with steps', () => {
  it('passes when each line occurs in its turn, in any order, with extra events allowed', async () => {
    const reordered = {
      ...HAPPY_REPLIES,
      'I want to transfer money': [...(HAPPY_REPLIES['I want to transfer money'] ?? [])].reverse(),
    };
    const result = only((await run(TRANSFER, { replies: reordered })).results);
    expect(result.failure).to.equal(undefined);
    expect(result.passed).to.equal(true);
    expect(result.usesAssertions).to.equal(false);
  });

  it('fails an utter line that is not in its turn and shows a Rasa diff (- actual, + expected)', async () => {
    const replies = { ...HAPPY_REPLIES, '55': [slot('amount', 55), bot('Sure?', 'utter_ask_confirm')] };
    const result = only((await run(TRANSFER, { replies })).results);
    expect(result.passed).to.equal(false);
    const failure = result.failure;
    if (failure?.kind !== 'steps') throw new Error('expected a steps failure');
    expect(failure.line).to.equal(12);
    expect(failure.message).to.equal("Bot did not utter 'utter_ask_timing' response.");
    expect(failure.difference).to.deep.equal([
      '  user: I want to transfer money',
      '  bot: utter_transfer_money_understand',
      '  bot: Which account would you like to transfer money from?',
      '  user: 55',
      '  slot_was_set: amount: 55 (int)',
      '  slot_was_not_set: payee_name',
      '- bot: utter_ask_confirm',
      '+ bot: utter_ask_timing',
    ]);
    expect(failure.transcript).to.deep.equal([
      'UserUttered(text: 55)',
      'SlotSet(key: amount, value: 55)',
      'BotUttered(text: Sure?, utter_action: utter_ask_confirm)',
      'ActionExecuted(action: action_listen)',
    ]);
  });

  it('does not look for a line in another turn than its own', async () => {
    const replies = {
      'I want to transfer money': [
        bot('I understand.', 'utter_transfer_money_understand'),
        bot('When?', 'utter_ask_timing'),
        bot('Which account would you like to transfer money from?'),
      ],
      '55': [slot('amount', 55)],
    };
    const result = only((await run(TRANSFER, { replies })).results);
    expect(result.failure).to.deep.include({ kind: 'steps', line: 12 });
  });

  it('compares bot lines with the exact text', async () => {
    const replies = {
      ...HAPPY_REPLIES,
      'I want to transfer money': [
        bot('I understand.', 'utter_transfer_money_understand'),
        bot('Which account would you like to transfer money from? ', 'utter_ask_account_from'),
      ],
    };
    const result = only((await run(TRANSFER, { replies })).results);
    const failure = result.failure;
    if (failure?.kind !== 'steps') throw new Error('expected a steps failure');
    expect(failure.line).to.equal(6);
    expect(failure.difference.slice(-2)).to.deep.equal([
      '- bot: Which account would you like to transfer money from? ',
      '+ bot: Which account would you like to transfer money from?',
    ]);
  });

  it('fails slot_was_set on a missing slot or another value, and collects every mismatch', async () => {
    const replies = {
      ...HAPPY_REPLIES,
      '55': [slot('amount', 56), slot('payee_name', 'Amy'), bot('When?', 'utter_ask_timing')],
    };
    const failure = only((await run(TRANSFER, { replies })).results).failure;
    if (failure?.kind !== 'steps') throw new Error('expected a steps failure');
    expect(failure.mismatches).to.deep.equal([
      { line: 9, message: "Slot 'amount' was not set to '55'." },
      { line: 11, message: "Slot 'payee_name' was set but it should not have been set." },
    ]);
    expect(failure.difference.slice(-4)).to.deep.equal([
      '- slot_was_set: amount: 56 (int)',
      '+ slot_was_set: amount: 55 (int)',
      '- slot_was_set: payee_name: Amy (str)',
      '+ slot_was_not_set: payee_name',
    ]);
  });

  it('compares slot values as Python does: Yes stays text, 1 equals True', async () => {
    const text = yaml`
      test_cases:
        - test_case: slots
          steps:
            - user: go
            - slot_was_set:
                - confirmed: Yes
                - enabled: true
    `;
    const passing = await run(text, { replies: { go: [slot('confirmed', 'Yes'), slot('enabled', 1)] } });
    expect(only(passing.results).passed).to.equal(true);
    const failing = await run(text, { replies: { go: [slot('confirmed', true), slot('enabled', true)] } });
    expect(only(failing.results).failure).to.deep.include({
      line: 6,
      message: "Slot 'confirmed' was not set to 'Yes'.",
    });
  });

  it('checks lines before the first user message against the session start', async () => {
    const text = yaml`
      test_cases:
        - test_case: greeted
          steps:
            - utter: utter_greeting
            - user: /session_start
            - utter: utter_greeting
    `;
    const sessionStart = [
      action('action_session_start'),
      sessionStarted,
      bot('Hi!', 'utter_greeting'),
      listen,
    ];
    const replies = { '/session_start': [bot('Hi!', 'utter_greeting')] };
    expect(only((await run(text, { sessionStart, replies })).results).passed).to.equal(true);
    const failure = only((await run(text, { replies })).results).failure;
    expect(failure).to.deep.include({ kind: 'steps', line: 4 });
  });

  it('reports no bot response when no unclaimed bot message is left', async () => {
    const text = yaml`
      test_cases:
        - test_case: two messages
          steps:
            - user: hi
            - bot: Please confirm your name.
            - bot: By typing it below this message.
            - bot: Or provide some other identification.
    `;
    const replies = { hi: [bot('Please confirm your name.'), bot('Or provide some other identification.')] };
    const failure = only((await run(text, { replies })).results).failure;
    if (failure?.kind !== 'steps') throw new Error('expected a steps failure');
    expect(failure.difference).to.deep.equal([
      '  user: hi',
      '  bot: Please confirm your name.',
      '- * No Bot Response *',
      '+ bot: By typing it below this message.',
    ]);
  });
});

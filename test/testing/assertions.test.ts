import { expect } from 'chai';
import type { Event } from '../../src/core/events/types.js';
import type { E2EResult } from '../../src/testing/index.js';
import {
  action,
  bot,
  flowCancelled,
  flowCompleted,
  flowStarted,
  listen,
  only,
  run,
  sessionStarted,
  slot,
} from './helpers.js';

/** Runs one user turn ("go") checked by the given assertion lines against the given reply events. */
async function check(assertions: string[], reply: readonly Event[], order = false): Promise<E2EResult> {
  const text = [
    'test_cases:',
    '  - test_case: assertions',
    '    steps:',
    '      - user: warm up',
    '      - user: go',
    ...(order ? ['        assertion_order_enabled: true'] : []),
    '        assertions:',
    ...assertions.map((line) => `          ${line}`),
  ].join('\n');
  return only((await run(text, { replies: { go: reply } })).results);
}

function failureOf(result: E2EResult): { line: number; message: string } {
  if (result.failure?.kind !== 'assertion')
    throw new Error(`expected an assertion failure: ${JSON.stringify(result)}`);
  return { line: result.failure.line, message: result.failure.message };
}

const BUTTONS = [
  { title: 'Yes', payload: '/SetSlots(ok=true)' },
  { title: 'No', payload: '/SetSlots(ok=false)' },
];

describe('e2e assertions', () => {
  it('flow_started: the flow id (or any / all of flow_ids) must start in the turn', async () => {
    const reply = [flowStarted('transfer_money'), flowStarted('add_payee')];
    expect((await check(['- flow_started: transfer_money'], reply)).passed).to.equal(true);
    expect(
      (await check(['- flow_started: {operator: any, flow_ids: [x, add_payee]}'], reply)).passed,
    ).to.equal(true);
    expect(
      (await check(['- flow_started: {operator: all, flow_ids: [transfer_money, add_payee]}'], reply)).passed,
    ).to.equal(true);
    expect(failureOf(await check(['- flow_started: check_balance'], reply))).to.deep.equal({
      line: 7,
      message: "Flow with id 'check_balance' did not start.",
    });
    expect(
      failureOf(await check(['- flow_started: {operator: any, flow_ids: [x, y]}'], reply)).message,
    ).to.equal("None of the flows with ids 'x, y' started.");
  });

  it('flow_completed / flow_cancelled: the flow must end in the turn, at the step id when given', async () => {
    const reply = [flowCompleted('transfer_money', 'END'), flowCancelled('add_payee', 'ask_name')];
    expect(
      (await check(['- flow_completed: {flow_id: transfer_money, flow_step_id: END}'], reply)).passed,
    ).to.equal(true);
    expect((await check(['- flow_cancelled: {flow_id: add_payee}'], reply)).passed).to.equal(true);
    expect(failureOf(await check(['- flow_completed: {flow_id: add_payee}'], reply)).message).to.equal(
      "Flow with id 'add_payee' did not complete.",
    );
    expect(
      failureOf(await check(['- flow_cancelled: {flow_id: add_payee, flow_step_id: x}'], reply)).message,
    ).to.equal(
      "Flow with id 'add_payee' was not cancelled at expected step id 'x'. The actual step id was 'ask_name'.",
    );
  });

  it('pattern_clarification_contains: compares the offered names (list form) or flow ids (operator form)', async () => {
    const clarification = flowStarted('pattern_clarification', {
      names: ['add a payee', 'list payees'],
      clarification_ids: ['add_payee', 'list_payees'],
    });
    expect(
      (await check(['- pattern_clarification_contains: [list payees, add a payee]'], [clarification])).passed,
    ).to.equal(true);
    const all = '- pattern_clarification_contains: {operator: all, flow_ids: [add_payee, list_payees]}';
    expect((await check([all], [clarification])).passed).to.equal(true);
    const any = '- pattern_clarification_contains: {operator: any, flow_ids: [remove_payee]}';
    expect(failureOf(await check([any], [clarification])).message).to.equal(
      "'pattern_clarification' pattern did not contain any of the expected options 'remove_payee'.",
    );
    expect(failureOf(await check([all], [])).message).to.equal(
      "'pattern_clarification' pattern did not trigger.",
    );
  });

  it('action_executed: the action must run in the turn', async () => {
    expect((await check(['- action_executed: action_check'], [action('action_check')])).passed).to.equal(
      true,
    );
    expect(
      failureOf(await check(['- action_executed: action_check'], [action('action_other')])).message,
    ).to.equal("Action 'action_check' did not execute.");
  });

  it('slot_was_set: each slot must be set, to the value when given (Python equality), failing at its line', async () => {
    const reply = [slot('amount', 55.0), slot('payee', 'Amy'), slot('payee', 'Bob')];
    const assertion = [
      '- slot_was_set:',
      '    - name: amount',
      '      value: 55',
      '    - name: payee',
      '      value: Amy',
    ];
    expect((await check(assertion, reply)).passed).to.equal(true);
    const wrong = ['- slot_was_set:', '    - name: amount', '    - name: payee', '      value: Carl'];
    expect(failureOf(await check(wrong, reply))).to.deep.equal({
      line: 9,
      message: "Slot 'payee' was set to a different value 'Bob' than the expected 'Carl' value.",
    });
    expect(failureOf(await check(['- slot_was_set: [{name: card}]'], reply)).message).to.equal(
      "Slot 'card' was not set.",
    );
  });

  it('slot_was_not_set: fails when the slot ends the turn with a value (or with the given value)', async () => {
    const reply = [slot('amount', 55), slot('payee', 'Amy'), slot('payee', null)];
    expect((await check(['- slot_was_not_set: [{name: payee}, {name: card}]'], reply)).passed).to.equal(true);
    expect(failureOf(await check(['- slot_was_not_set: [{name: amount}]'], reply)).message).to.equal(
      "Slot 'amount' was set to '55' but it should not have been set.",
    );
    expect((await check(['- slot_was_not_set: [{name: amount, value: 56}]'], reply)).passed).to.equal(true);
    expect(
      failureOf(await check(['- slot_was_not_set: [{name: amount, value: 55}]'], reply)).message,
    ).to.equal("Slot 'amount' was set to '55' but it should not have been set.");
  });

  it('bot_uttered: matches the response name, a regex searched in the text, and the exact button list', async () => {
    const reply = [bot('Does everything look correct?', 'utter_ask_verify', BUTTONS)];
    const full =
      '- bot_uttered: {utter_name: utter_ask_verify, text_matches: "look correct\\\\?$", ' +
      'buttons: [{title: Yes, payload: "/SetSlots(ok=true)"}, {title: No, payload: "/SetSlots(ok=false)"}]}';
    expect((await check([full], reply)).passed).to.equal(true);
    const fewerButtons = '- bot_uttered: {buttons: [{title: Yes, payload: "/SetSlots(ok=true)"}]}';
    expect(failureOf(await check([fewerButtons], reply)).message).to.equal(
      'Bot did not utter any response with the expected buttons.',
    );
    const wrong = '- bot_uttered: {utter_name: utter_other, text_matches: "^Nope"}';
    expect(failureOf(await check([wrong], reply)).message).to.equal(
      "Bot did not utter 'utter_other' response. " +
        "Bot did not utter any response which matches the provided text pattern '^Nope'.",
    );
  });

  it('bot_did_not_utter: fails when a bot message has the name, matches the pattern or shows a button', async () => {
    const reply = [bot('Does everything look correct?', 'utter_ask_verify', BUTTONS)];
    expect((await check(['- bot_did_not_utter: {utter_name: utter_goodbye}'], reply)).passed).to.equal(true);
    expect(
      failureOf(await check(['- bot_did_not_utter: {utter_name: utter_ask_verify}'], reply)).message,
    ).to.equal("Bot uttered a forbidden utterance 'utter_ask_verify'.");
    const button = '- bot_did_not_utter: {buttons: [{title: No, payload: "/SetSlots(ok=false)"}]}';
    expect(failureOf(await check([button], reply)).message).to.equal(
      'Bot uttered a forbidden response with specified buttons.',
    );
  });

  it('generative response assertions fail with a clear message: they need an LLM judge', async () => {
    const result = await check(['- generative_response_is_grounded: {threshold: 0.9}'], [bot('An answer')]);
    expect(failureOf(result).message).to.contain('needs an LLM judge');
  });

  it('with assertion order enabled, each assertion only sees the events after the previous match', async () => {
    const reply = [
      flowStarted('transfer_money'),
      bot('Which account?', 'utter_ask_account'),
      action('action_check'),
    ];
    const inOrder = ['- flow_started: transfer_money', '- bot_uttered: {utter_name: utter_ask_account}'];
    expect((await check(inOrder, reply, true)).passed).to.equal(true);
    const reversed = ['- bot_uttered: {utter_name: utter_ask_account}', '- flow_started: transfer_money'];
    expect((await check(reversed, reply)).passed).to.equal(true);
    expect(failureOf(await check(reversed, reply, true))).to.deep.equal({
      line: 9,
      message:
        "Flow with id 'transfer_money' did not start. You have enabled assertion order, you should check the order " +
        'in which the assertions are listed for this user step.',
    });
  });

  it('checks only the events of the turn, the first turn also seeing the session start', async () => {
    const text = [
      'test_cases:',
      '  - test_case: turns',
      '    steps:',
      '      - user: hi',
      '        assertions:',
      '          - bot_uttered: {utter_name: utter_greet}',
      '      - user: again',
      '        assertions:',
      '          - bot_uttered: {utter_name: utter_greet}',
    ].join('\n');
    const sessionStart = [
      action('action_session_start'),
      sessionStarted,
      bot('Hello', 'utter_greet'),
      listen,
    ];
    const result = only((await run(text, { sessionStart })).results);
    expect(result.failure).to.deep.include({ kind: 'assertion', line: 9 });
    expect(result.failure?.transcript).to.deep.equal([
      'UserUttered(text: again)',
      'ActionExecuted(action: action_listen)',
    ]);
  });

  it('ignores bot/utter lines in a test case that uses assertions, as Rasa does', async () => {
    const text = [
      'test_cases:',
      '  - test_case: mixed',
      '    steps:',
      '      - user: hi',
      '        assertions:',
      '          - action_executed: action_listen',
      '      - utter: utter_never_sent',
    ].join('\n');
    expect(only((await run(text, {})).results).passed).to.equal(true);
  });
});

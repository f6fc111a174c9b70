/**
 * A new session starts from an empty dialogue stack, as in Rasa: `session_started` applies the
 * tracker's reset, which empties the stack with the slots, and nothing is predicted after
 * action_session_start in the same turn (Rasa's `should_predict_another_action`).
 */
import { expect } from 'chai';
import type { Command } from '../../src/core/commands/types.js';
import {
  actionNames,
  eventNames,
  flowEvents,
  inlineAssistant,
  ManualClock,
  startConversation,
  utterances,
} from '../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    session_config:
      session_expiration_time: 60
      carry_over_slots_to_new_session: false
    slots:
      recipient:
        type: text
        mappings:
          - type: from_llm
      amount:
        type: float
        mappings:
          - type: from_llm
    responses:
      utter_ask_recipient:
        - text: Who to?
      utter_ask_amount:
        - text: How much?
      utter_done:
        - text: Sent.
      utter_welcome:
        - text: Welcome!
      utter_after_reset:
        - text: This comes after the session start.
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money.
        steps:
          - collect: recipient
          - collect: amount
          - action: utter_done
      pattern_session_start:
        description: Greet, then start the session.
        nlu_trigger:
          - intent: session_start
        steps:
          - action: utter_welcome
          - action: action_session_start
          - action: utter_after_reset
  `,
});

const start = (flow: string): Command => ({ command: 'start flow', flow });

describe('a new session starts from an empty stack', () => {
  it('drops the flow of an expired session: the next answer resumes nothing', async () => {
    const clock = new ManualClock();
    const conversation = await startConversation(assistant, { clock });
    await conversation.send('send money', [start('transfer_money')]);
    await conversation.send('/SetSlots(recipient=Ann)');
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.include('transfer_money');
    clock.advanceMinutes(61);
    const events = await conversation.send('/SetSlots(amount=5)');
    expect(actionNames(events)[0]).to.equal('action_session_start');
    expect(utterances(events)).to.deep.equal([]);
    expect(flowEvents(events)).to.deep.equal([]);
    expect(await conversation.stack()).to.deep.equal([]);
    expect(await conversation.slots()).to.include({ recipient: null });
  });

  it('ends the turn at an action_session_start step: later steps do not run, the stack is empty', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    await conversation.send('/SetSlots(recipient=Ann)');
    const events = await conversation.send('/session_start');
    expect(utterances(events)).to.deep.equal(['utter_welcome']);
    expect(flowEvents(events)).to.deep.equal(['flow_started pattern_session_start']);
    const names = eventNames(events);
    expect(names.slice(names.indexOf('session_started') - 1)).to.deep.equal([
      'action',
      'session_started',
      'action',
    ]);
    expect(actionNames(events).slice(-2)).to.deep.equal(['action_session_start', 'action_listen']);
    expect(await conversation.stack()).to.deep.equal([]);
    expect(await conversation.slots()).to.include({ recipient: null });
    const next = await conversation.send('send money', [start('transfer_money')]);
    expect(utterances(next)).to.deep.equal(['utter_ask_recipient']);
  });
});

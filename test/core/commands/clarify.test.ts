import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import {
  actionNames,
  flowEvents,
  flowsStarted,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      recipient:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_balance:
        - text: You have 10 euros.
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
      check_balance:
        name: Check your balance
        description: Tell the account balance.
        steps:
          - action: utter_balance
  `,
});

const clarify = (...options: string[]): Command => ({ command: 'clarify', options });

function clarificationContext(events: readonly Event[]): Readonly<Record<string, unknown>> | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === 'pattern_clarification')
    ?.metadata;
}

describe('Clarify command', () => {
  it('asks which flow was meant, offering the flows by their readable names', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('money', [clarify('transfer_money', 'check_balance')]);
    const context = clarificationContext(events);
    expect(context?.['names']).to.have.members(['transfer money', 'Check your balance']);
    expect(actionNames(events)).to.include('action_clarify_flows');
    expect(utterances(events)).to.deep.equal(['utter_clarification_options_rasa']);
  });

  it('offers the options in the order of their flow ids, as Rasa sorts them, each once', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('money', [
      clarify('transfer_money', 'check_balance', 'transfer_money'),
    ]);
    expect(clarificationContext(events)).to.deep.include({
      names: ['Check your balance', 'transfer money'],
      clarification_ids: ['check_balance', 'transfer_money'],
    });
  });

  it('inside a flow, leaves its question pending: nothing ends, and it is asked again after the options', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('money?', [clarify('transfer_money', 'check_balance')]);
    expect(
      events.filter((event) => event.event === 'flow_completed').map((event) => event.flow_id),
    ).to.deep.equal(['pattern_clarification']);
    expect(utterances(events)).to.deep.equal(['utter_clarification_options_rasa', 'utter_ask_recipient']);
  });

  it('starts the flow directly when only one valid option is left', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('money', [clarify('transfer_money', 'no_such_flow')]);
    expect(flowsStarted(events)).to.not.include('pattern_clarification');
    expect(flowsStarted(events)[0]).to.equal('transfer_money');
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });

  it('drops options that are not flows, and the whole command when none is left', async () => {
    const conversation = await startConversation(assistant);
    const some = await conversation.send('money', [
      clarify('transfer_money', 'no_such_flow', 'check_balance'),
    ]);
    expect(clarificationContext(some)?.['names']).to.have.length(2);
    const none = await conversation.send('money', [clarify('no_such_flow', 'other_missing_flow')]);
    expect(flowsStarted(none)).to.deep.equal([]);
    expect(utterances(none)).to.deep.equal([]);
  });

  it('is dropped when other commands come with it', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('balance', [
      clarify('transfer_money', 'check_balance'),
      { command: 'start flow', flow: 'check_balance' },
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_clarification');
    expect(utterances(events)[0]).to.equal('utter_balance');
  });

  it('ends the "anything else?" of pattern_completed (Rasa 3.16) instead of asking it again after the options', async () => {
    const asking = inlineAssistant({
      domain: `
        responses:
          utter_balance:
            - text: You have 10 euros.
          utter_hello:
            - text: Hello!
      `,
      flows: `
        flows:
          check_balance:
            name: Check your balance
            description: Tell the account balance.
            steps:
              - action: utter_balance
          greet:
            description: Say hello.
            steps:
              - action: utter_hello
      `,
      config: `
        recipe: default.v1
        language: en
        assistant_id: inline-test
        parley:
          rasa_version: "3.16"
      `,
    });
    const conversation = await startConversation(asking);
    const first = await conversation.send('hi', [{ command: 'start flow', flow: 'greet' }]);
    expect(utterances(first)).to.deep.equal(['utter_hello', 'utter_ask_continue_conversation']);
    const events = await conversation.send('money?', [clarify('check_balance', 'greet')]);
    expect(flowEvents(events).slice(0, 3)).to.deep.equal([
      'flow_completed pattern_collect_information',
      'flow_completed pattern_completed',
      'flow_started pattern_clarification',
    ]);
    expect(utterances(events)).to.deep.equal(['utter_clarification_options_rasa']);
    expect(await conversation.stack()).to.deep.equal([]);
  });
});

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  flowEvents,
  flowsStarted,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      counter:
        type: float
      recipient:
        type: text
    responses:
      utter_hello:
        - text: Hello!
      utter_after:
        - text: Back in the caller.
      utter_ask_recipient:
        - text: To whom?
  `,
  flows: `
    flows:
      spin:
        description: A flow that never ends.
        steps:
          - id: again
            set_slots:
              - counter: 1
            next: turn
          - id: turn
            noop: true
            next: again
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
      caller:
        description: Calls a flow that never ends.
        steps:
          - call: spin
          - action: utter_after
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
      four_steps:
        description: Three steps that go on, then one that speaks.
        steps:
          - noop: true
            next: second
          - id: second
            noop: true
            next: third
          - id: third
            noop: true
            next: speak
          - id: speak
            action: utter_hello
      pattern_chitchat:
        description: A pattern that never ends.
        steps:
          - id: again
            set_slots:
              - counter: 1
            next: turn
          - id: turn
            noop: true
            next: again
  `,
});

const start = (flow: string): Command => ({ command: 'start flow', flow });

describe('step budget', () => {
  it('stops a flow that loops forever with pattern_internal_error instead of hanging', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('spin', [start('spin')]);
    expect(flowsStarted(events)).to.include('pattern_internal_error');
    const error = events.find(
      (event) => event.event === 'flow_started' && event.flow_id === 'pattern_internal_error',
    );
    expect(error?.metadata).to.include({ error_type: 'rasa_internal_error_default' });
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    const last = events.at(-1);
    expect(last).to.include({ event: 'action', name: 'action_listen' });
    expect((await conversation.stack()).filter((frame) => frame.type === 'flow')).to.deep.equal([]);
  });

  it('ends the looping flow (it completes, it is not cancelled) and then offers more help', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('spin', [start('spin')]);
    expect(flowEvents(events)).to.include('flow_completed spin');
    expect(flowEvents(events)).to.not.include('flow_cancelled spin');
    expect(utterances(events)).to.deep.equal(['utter_internal_error_rasa', 'utter_can_do_something_else']);
  });

  it('ends a looping called flow only: the caller goes on after its call step (Rasa: end_top_user_flow)', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('go', [start('caller')]);
    expect(utterances(events)).to.deep.equal([
      'utter_internal_error_rasa',
      'utter_after',
      'utter_can_do_something_else',
    ]);
    expect(flowEvents(events)).to.include.members(['flow_completed spin', 'flow_completed caller']);
  });

  it('ends a looping pattern when no user flow is running', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('blah', [{ command: 'chitchat' }]);
    expect(utterances(events)).to.deep.equal(['utter_internal_error_rasa']);
    expect(flowEvents(events)).to.include('flow_completed pattern_chitchat');
    expect(await conversation.stack()).to.deep.equal([]);
  });

  it('leaves the flow that the looping one interrupted, and asks whether to continue it', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    const events = await conversation.send('spin', [start('spin')]);
    expect(flowEvents(events)).to.not.include('flow_completed transfer_money');
    expect(flowsStarted(events)).to.include('pattern_continue_interrupted');
    expect((await conversation.stack())[0]).to.include({ flow_id: 'transfer_money', frame_type: 'regular' });
  });

  it('allows exactly as many steps as the budget', async () => {
    const enough = await startConversation(assistant, { engineOptions: { maxStepsPerPrediction: 4 } });
    expect(utterances(await enough.send('go', [start('four_steps')]))[0]).to.equal('utter_hello');
    const short = await startConversation(assistant, { engineOptions: { maxStepsPerPrediction: 3 } });
    expect(utterances(await short.send('go', [start('four_steps')]))[0]).to.equal(
      'utter_internal_error_rasa',
    );
  });

  it('respects a smaller budget from the engine options', async () => {
    const conversation = await startConversation(assistant, { engineOptions: { maxStepsPerPrediction: 10 } });
    const events = await conversation.send('spin', [start('spin')]);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
  });

  it('leaves the conversation usable for the next message', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('spin', [start('spin')]);
    const events = await conversation.send('hi', [start('greet')]);
    expect(flowsStarted(events)[0]).to.equal('greet');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });
});

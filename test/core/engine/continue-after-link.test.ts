import { expect } from 'chai';
import {
  flowsStarted,
  inlineAssistant,
  stackFlows,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

// A pattern that links to a user flow (a project's pattern_cannot_handle handing over to a help flow,
// as Rasa's hybrid demo does): the linked flow runs as the conversation's flow, with frame type `link`.
const assistant = inlineAssistant({
  domain: `
    slots:
      topic:
        type: text
      recipient:
        type: text
    responses:
      utter_ask_topic:
        - text: What do you need help with?
      utter_hello:
        - text: Hello!
      utter_ask_recipient:
        - text: To whom?
  `,
  flows: `
    flows:
      pattern_cannot_handle:
        description: Hand anything the assistant cannot handle to the help flow.
        steps:
          - link: get_help
      get_help:
        name: get help
        description: Help the user find the right topic.
        steps:
          - collect: topic
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
      greet_then_help:
        description: Say hello, then help.
        steps:
          - action: utter_hello
          - link: get_help
      transfer_money:
        name: transfer money
        description: Send money.
        steps:
          - collect: recipient
  `,
});

describe('pattern_continue_interrupted after a link from a pattern', () => {
  it('offers to go back to a flow a pattern linked to, once the flow that interrupted it is done', async () => {
    const conversation = await startConversation(assistant);
    const handedOver = await conversation.send('gibberish', [{ command: 'cannot handle' }]);
    expect(flowsStarted(handedOver)).to.include.members(['pattern_cannot_handle', 'get_help']);
    expect((await conversation.stack()).find((frame) => frame.flow_id === 'get_help')?.frame_type).to.equal(
      'link',
    );

    const events = await conversation.send('hello', [{ command: 'start flow', flow: 'greet' }]);
    expect(utterances(events)).to.deep.equal([
      'utter_hello',
      'utter_ask_continue_interrupted_flow_confirmation',
    ]);
    const pattern = (await conversation.state()).stack.find(
      (frame) => frame.type === 'pattern_continue_interrupted',
    );
    expect(pattern).to.deep.include({
      interrupted_flow_ids: ['get_help'],
      interrupted_flow_options: 'get help',
    });
  });

  it('goes back to the linked flow when the user says yes: its question is asked again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('gibberish', [{ command: 'cannot handle' }]);
    const asked = await conversation.send('hello', [{ command: 'start flow', flow: 'greet' }]);
    expect(utterances(asked)).to.include('utter_ask_continue_interrupted_flow_confirmation');
    const events = await conversation.send('yes', [
      { command: 'set slot', name: 'continue_interrupted_flow_confirmation', value: true },
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_topic']);
    expect(stackFlows(await conversation.stack())).to.deep.equal([
      'get_help@get_help_0_collect_topic',
      'pattern_collect_information@pattern_collect_information_4_action_listen',
    ]);
  });

  it('does not offer a flow that was just linked to and has not started yet', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    await conversation.send('hello', [{ command: 'start flow', flow: 'greet_then_help' }]);
    const pattern = (await conversation.state()).stack.find(
      (frame) => frame.type === 'pattern_continue_interrupted',
    );
    expect(pattern).to.deep.include({ interrupted_flow_ids: ['transfer_money'] });
  });

  it('cancels the linked flow when the user does not want to go back', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('gibberish', [{ command: 'cannot handle' }]);
    await conversation.send('hello', [{ command: 'start flow', flow: 'greet' }]);
    const events = await conversation.send('no', [
      { command: 'set slot', name: 'continue_interrupted_flow_confirmation', value: false },
    ]);
    expect(utterances(events)).to.include('utter_flow_cancelled_rasa');
    expect(
      events
        .filter((event) => event.event === 'flow_cancelled')
        .map((event) => 'flow_id' in event && event.flow_id),
    ).to.deep.equal(['get_help']);
    expect((await conversation.stack()).some((frame) => frame.flow_id === 'get_help')).to.equal(false);
  });
});

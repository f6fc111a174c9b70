import { expect } from 'chai';
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
      recipient:
        type: text
      amount:
        type: float
      city:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_ask_amount:
        - text: How much?
      utter_ask_city:
        - text: Which city?
      utter_hello:
        - text: Hello!
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
          - collect: amount
      check_weather:
        description: Tell the weather in a city.
        steps:
          - collect: city
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

const start = (flow: string) => [{ command: 'start flow', flow } as const];

describe('StartFlow command', () => {
  it('pushes a regular frame for the flow when nothing is active, and the flow starts', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('send money', start('transfer_money'));
    expect(flowsStarted(events)).to.deep.equal(['transfer_money', 'pattern_collect_information']);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    const stack = await conversation.stack();
    expect(stack[0]).to.include({ flow_id: 'transfer_money', type: 'flow', frame_type: 'regular' });
  });

  it('interrupts the active flow: flow_interrupted for it, and the new flow is an interrupt frame on top', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', start('transfer_money'));
    const events = await conversation.send('weather?', start('check_weather'));
    expect(flowEvents(events).slice(0, 2)).to.deep.equal([
      'flow_interrupted transfer_money',
      'flow_started check_weather',
    ]);
    const interrupted = events.find((event) => event.event === 'flow_interrupted');
    expect(interrupted).to.include({
      flow_id: 'transfer_money',
      step_id: 'transfer_money_0_collect_recipient',
    });
    const stack = await conversation.stack();
    expect(stack.map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
      'check_weather',
      'pattern_collect_information',
    ]);
    expect(stack[2]).to.include({ frame_type: 'interrupt' });
    expect(utterances(events)).to.deep.equal(['utter_ask_city']);
  });

  it('resumes a flow that is already on the stack: flow_interrupted for the top one, flow_resumed for it', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', start('transfer_money'));
    await conversation.send('weather?', start('check_weather'));
    const events = await conversation.send('back to the money', start('transfer_money'));
    expect(flowEvents(events).slice(0, 2)).to.deep.equal([
      'flow_interrupted check_weather',
      'flow_resumed transfer_money',
    ]);
    expect(flowsStarted(events)).to.not.include('transfer_money');
    const stack = await conversation.stack();
    expect(stack.map((frame) => frame.flow_id)).to.deep.equal([
      'check_weather',
      'pattern_collect_information',
      'transfer_money',
      'pattern_collect_information',
    ]);
    // move_frames_to_top: the bottom-most user frame is the regular one, the others interrupts
    expect(stack[0]).to.include({ frame_type: 'regular' });
    expect(stack[2]).to.include({ frame_type: 'interrupt' });
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });

  it('resumes a flow waiting below another regular one (both started in one turn) by moving only its frames', async () => {
    const conversation = await startConversation(assistant);
    // with no flow active, the flows run in the order asked: transfer_money on top, check_weather below
    await conversation.send('money and weather', [
      { command: 'start flow', flow: 'transfer_money' },
      { command: 'start flow', flow: 'check_weather' },
    ]);
    const events = await conversation.send('the weather first', start('check_weather'));
    expect(flowEvents(events).slice(0, 2)).to.deep.equal([
      'flow_interrupted transfer_money',
      'flow_resumed check_weather',
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_city']);
    const stack = await conversation.stack();
    expect(stack.map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
      'check_weather',
      'pattern_collect_information',
    ]);
  });

  it('is dropped when the flow is already the active one: no new frame, the question is asked again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', start('transfer_money'));
    const before = await conversation.stack();
    const events = await conversation.send('send money', start('transfer_money'));
    expect(flowEvents(events)).to.deep.equal([]);
    expect(await conversation.stack()).to.deep.equal(before);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });

  it('ignores a flow id that does not exist', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('do magic', start('make_magic'));
    expect(flowEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal([]);
    expect(await conversation.stack()).to.deep.equal([]);
  });

  it('runs a flow that finishes in the same turn to its end and offers more help', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('hi', start('greet'));
    expect(flowEvents(events)).to.deep.equal([
      'flow_started greet',
      'flow_completed greet',
      'flow_started pattern_completed',
      'flow_completed pattern_completed',
    ]);
    expect(utterances(events)).to.deep.equal(['utter_hello', 'utter_can_do_something_else']);
  });

  it('restating the interrupted flow while being asked whether to go back to it resumes it, without interrupting itself', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', start('transfer_money'));
    await conversation.send('weather?', start('check_weather'));
    const asked = await conversation.send('Paris', [{ command: 'set slot', name: 'city', value: 'Paris' }]);
    expect(flowsStarted(asked)).to.include('pattern_continue_interrupted');
    const events = await conversation.send('back to the money', start('transfer_money'));
    expect(flowEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    const stack = await conversation.stack();
    expect(stack.map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
  });
});

describe('StartFlow command resuming a flow that had called another', () => {
  const calling = inlineAssistant({
    domain: `
      slots:
        recipient:
          type: text
        amount:
          type: float
        city:
          type: text
      responses:
        utter_ask_recipient:
          - text: To whom?
        utter_ask_amount:
          - text: How much?
        utter_ask_city:
          - text: Which city?
    `,
    flows: `
      flows:
        transfer_money:
          description: Send money to someone.
          steps:
            - call: ask_recipient
            - collect: amount
        ask_recipient:
          description: Ask who gets the money.
          steps:
            - collect: recipient
        check_weather:
          description: Tell the weather in a city.
          steps:
            - collect: city
    `,
  });

  it('brings the called flow back with it, up to the interrupting flow', async () => {
    const conversation = await startConversation(calling);
    await conversation.send('send money', start('transfer_money'));
    await conversation.send('weather?', start('check_weather'));
    const events = await conversation.send('back to the money', start('transfer_money'));
    expect(flowEvents(events)).to.deep.equal([
      'flow_interrupted check_weather',
      'flow_resumed transfer_money',
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    const stack = await conversation.stack();
    expect(stack.map((frame) => [frame.flow_id, frame.frame_type])).to.deep.equal([
      ['check_weather', 'regular'],
      ['pattern_collect_information', undefined],
      ['transfer_money', 'interrupt'],
      ['ask_recipient', 'call'],
      ['pattern_collect_information', undefined],
    ]);
  });
});

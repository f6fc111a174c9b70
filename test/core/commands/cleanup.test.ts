import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
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
      city:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
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

const start = (flow: string): Command => ({ command: 'start flow', flow });
const cannotHandle = (reason: string): Command => ({ command: 'cannot handle', reason });

describe('command cleanup', () => {
  it('keeps at most one CannotHandle (the first)', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('??', [
      cannotHandle('cannot_handle_not_supported'),
      cannotHandle('cannot_handle_no_relevant_answer'),
    ]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    expect(utterances(events)).to.deep.equal(['utter_cannot_handle']);
  });

  it('drops CannotHandle when other commands remain', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('hi', [
      cannotHandle('cannot_handle_not_supported'),
      start('greet'),
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_cannot_handle');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });

  it('drops the CannotHandle a bad SetSlot becomes when another command remains', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('hi', [
      { command: 'set slot', name: 'no_such_slot', value: 1 },
      start('greet'),
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_cannot_handle');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });

  it('puts free-form answers first, so they are answered before a flow started in an active flow', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    const events = await conversation.send('weather? and fees?', [
      start('check_weather'),
      { command: 'knowledge' },
    ]);
    expect(utterances(events)).to.deep.equal(['utter_no_knowledge_base', 'utter_ask_city']);
    expect(flowsStarted(events)).to.deep.equal([
      'pattern_search',
      'check_weather',
      'pattern_collect_information',
    ]);
  });

  it('drops Clarify when it comes with other commands', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('money or weather', [
      { command: 'clarify', options: ['transfer_money', 'check_weather'] },
      start('greet'),
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_clarification');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });

  it('keeps only the first Clarify when all commands are Clarify', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('money or weather', [
      { command: 'clarify', options: ['transfer_money', 'check_weather'] },
      { command: 'clarify', options: ['greet', 'check_weather'] },
    ]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_clarification']);
    const context = events.find((event) => event.event === 'flow_started')?.metadata;
    expect(context?.['clarification_ids']).to.have.members(['transfer_money', 'check_weather']);
  });

  // Rasa's reorder_commands moves the LAST StartFlow to the end before reversing the list: it runs first,
  // so its flow is at the bottom and the earlier ones are pushed above it, the first one on top
  it('with no active flow, runs the flows in the order asked, the first one on top and all regular', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('weather and money', [
      start('check_weather'),
      start('transfer_money'),
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_city']);
    const frames = (await conversation.stack()).filter((frame) => frame.type === 'flow');
    expect(frames.map((frame) => [frame.flow_id, frame.frame_type])).to.deep.equal([
      ['transfer_money', 'regular'],
      ['check_weather', 'regular'],
    ]);
  });

  it('with no active flow and three flows asked, stacks them so that they run first to last', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('hello, money and weather', [
      start('greet'),
      start('transfer_money'),
      start('check_weather'),
    ]);
    const frames = (await conversation.stack()).filter((frame) => frame.type === 'flow');
    // greet ran to its end in this turn; transfer_money is now asking, check_weather waits below it
    expect(frames.map((frame) => frame.flow_id)).to.deep.equal(['check_weather', 'transfer_money']);
  });

  it('starts a flow asked for twice in one message once, from the last request', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('weather, money, weather', [
      start('check_weather'),
      start('transfer_money'),
      start('check_weather'),
    ]);
    const frames = (await conversation.stack()).filter((frame) => frame.type === 'flow');
    expect(frames.map((frame) => frame.flow_id)).to.deep.equal(['check_weather', 'transfer_money']);
  });

  it('drops a StartFlow of the active flow or of an unknown flow, so a CannotHandle with it is answered', async () => {
    for (const flow of ['transfer_money', 'no_such_flow']) {
      const conversation = await startConversation(assistant);
      await conversation.send('send money', [start('transfer_money')]);
      const events = await conversation.send('money, and what?', [
        start(flow),
        cannotHandle('cannot_handle_not_supported'),
      ]);
      expect(flowsStarted(events), flow).to.deep.equal(['pattern_cannot_handle']);
      expect(utterances(events), flow).to.deep.equal(['utter_cannot_handle', 'utter_ask_recipient']);
    }
  });

  it('keeps a CancelFlow that follows another command (at most one of each, not only in first place)', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    const events = await conversation.send('fees? then stop', [
      { command: 'knowledge' },
      { command: 'cancel flow' },
      { command: 'cancel flow' },
    ]);
    expect(flowsStarted(events).slice(0, 2)).to.deep.equal(['pattern_search', 'pattern_cancel_flow']);
    expect(events.filter((event) => event.event === 'flow_cancelled')).to.have.length(1);
    expect(utterances(events).slice(0, 2)).to.deep.equal([
      'utter_no_knowledge_base',
      'utter_flow_cancelled_rasa',
    ]);
  });

  it('offers no pattern as a clarification option: one flow left is started directly', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('money or chat', [
      { command: 'clarify', options: ['transfer_money', 'pattern_chitchat', 'pattern_search'] },
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_clarification');
    expect(flowsStarted(events)[0]).to.equal('transfer_money');
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });
});

describe('command cleanup of ChitChat', () => {
  it('turns chitchat into cannot handle when any step of pattern_chitchat triggers chitchat, without IntentlessPolicy', async () => {
    const withIntro = inlineAssistant({
      domain: `
        responses:
          utter_small_talk:
            - text: Let us chat.
      `,
      flows: `
        flows:
          pattern_chitchat:
            description: Small talk.
            steps:
              - action: utter_small_talk
              - action: action_trigger_chitchat
      `,
    });
    const conversation = await startConversation(withIntro);
    const events = await conversation.send('nice weather', [{ command: 'chitchat' }]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    const started = events.find((event) => event.event === 'flow_started');
    expect(started?.metadata).to.include({ reason: 'cannot_handle_chitchat' });
    expect(utterances(events)).to.deep.equal(['utter_cannot_handle']);
  });
});

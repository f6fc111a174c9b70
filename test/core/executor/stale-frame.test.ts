import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import { stackUpdateEvent } from '../../../src/core/events/stack-update.js';
import type { UserFlowFrame } from '../../../src/core/stack/frames.js';
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
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_hello:
        - text: Hello!
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

function frame(flowId: string, stepId: string, frameId = 'OLD00001'): UserFlowFrame {
  return { frame_id: frameId, flow_id: flowId, step_id: stepId, frame_type: 'regular', type: 'flow' };
}

const start = (flow: string): Command => ({ command: 'start flow', flow });

describe('stale frames (the assistant changed under a running conversation)', () => {
  it('drops a frame whose flow no longer exists, without crashing', async () => {
    const conversation = await startConversation(assistant);
    const stack = stackUpdateEvent([], [frame('removed_flow', 'removed_flow_0_collect_thing')]);
    if (!stack) throw new Error('expected a stack event');
    await conversation.append([stack]);
    expect((await conversation.stack()).map((item) => item.flow_id)).to.deep.equal(['removed_flow']);
    const events = await conversation.send('hmm');
    expect(utterances(events)).to.deep.equal(['utter_ask_rephrase']);
    expect(events.at(-1)).to.include({ event: 'action', name: 'action_listen' });
    expect(await conversation.stack()).to.deep.equal([]);
    const next = await conversation.send('hi', [start('greet')]);
    expect(flowsStarted(next)[0]).to.equal('greet');
    expect(utterances(next)).to.deep.equal(['utter_hello', 'utter_can_do_something_else']);
  });

  it('drops a frame whose step no longer exists in its flow', async () => {
    const conversation = await startConversation(assistant);
    const stack = stackUpdateEvent([], [frame('transfer_money', 'renamed_step')]);
    if (!stack) throw new Error('expected a stack event');
    await conversation.append([stack]);
    const events = await conversation.send('anything');
    expect(events.at(-1)).to.include({ event: 'action', name: 'action_listen' });
    expect((await conversation.stack()).map((item) => item.flow_id)).to.not.include('transfer_money');
  });

  it('keeps the frames below a stale one running', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    const before = (await conversation.state()).stack;
    const stale = frame('removed_flow', 'removed_step', 'OLD00002');
    const stack = stackUpdateEvent(before, [...before, { ...stale, frame_type: 'interrupt' }]);
    if (!stack) throw new Error('expected a stack event');
    await conversation.append([stack]);
    const events = await conversation.send('hmm');
    expect(utterances(events)).to.include('utter_ask_recipient');
    expect((await conversation.stack()).map((item) => item.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
  });
});

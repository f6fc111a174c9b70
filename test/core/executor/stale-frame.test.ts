import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import { DEFAULT_ENGINE_OPTIONS, type EngineContext } from '../../../src/core/engine-context.js';
import { createTrackerState, foldEvents } from '../../../src/core/events/index.js';
import { stackUpdateEvent } from '../../../src/core/events/stack-update.js';
import { predictNextAction } from '../../../src/core/executor/advance.js';
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

describe('predicting the next action over stale frames (the engine alone, before any command cleanup)', () => {
  const context: EngineContext = {
    flows: assistant.flows,
    domain: assistant.domain,
    now: 1,
    newFrameId: () => 'F9',
    options: DEFAULT_ENGINE_OPTIONS,
  };

  function stateWith(frames: UserFlowFrame[]) {
    const init = createTrackerState({ senderId: 'u', initialSlots: { recipient: null } });
    const event = stackUpdateEvent([], frames, 1);
    return event ? foldEvents(init, [event]) : init;
  }

  it('drops a frame of a removed flow and listens', () => {
    const prediction = predictNextAction(stateWith([frame('removed_flow', 'some_step')]), context);
    expect(prediction.action).to.equal('action_listen');
    expect(prediction.state.stack).to.deep.equal([]);
  });

  it('drops a frame at a removed step and goes on with the frame below', () => {
    const below = frame('transfer_money', 'START', 'OLD00001');
    const stale = { ...frame('greet', 'renamed_step', 'OLD00002'), frame_type: 'interrupt' as const };
    const prediction = predictNextAction(stateWith([below, stale]), context);
    expect(prediction.action).to.equal('action_run_slot_rejections');
    expect(prediction.state.stack.map((item) => item.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
  });
});

import { expect } from 'chai';
import { DEFAULT_ENGINE_OPTIONS } from '../../src/core/engine-context.js';
import type { EngineContext } from '../../src/core/engine-context.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import type { TrackerState } from '../../src/core/events/tracker-state.js';
import type { UserUttered } from '../../src/core/events/types.js';
import type { Stack } from '../../src/core/stack/frames.js';
import { receiveUserMessage } from '../../src/core/turn.js';
import type { UserMessage } from '../../src/core/turn.js';
import { inlineAssistant } from '../support/inline-assistant.js';

const T0 = 1_700_000_000;

const assistant = inlineAssistant({
  domain: `
    version: "3.1"
    responses:
      utter_greet:
        - text: Hello!
  `,
  flows: `
    flows:
      greet:
        description: greets the user
        steps:
          - id: say_hello
            action: utter_greet
  `,
});

function context(): EngineContext {
  let frames = 0;
  return {
    flows: assistant.flows,
    domain: assistant.domain,
    now: T0,
    newFrameId: () => `F${(frames += 1)}`,
    options: DEFAULT_ENGINE_OPTIONS,
  };
}

function stateWith(stack: Stack): TrackerState {
  return { ...createTrackerState({ senderId: 'u', initialSlots: {} }), stack };
}

const MESSAGE: UserMessage = {
  text: 'hi',
  parseData: {
    intent: { name: 'greet', confidence: 1 },
    entities: [],
  } as unknown as UserMessage['parseData'],
  commands: [],
};

describe('receiving a user message (the start of a turn)', () => {
  it('writes the user event first, stamped with the turn time and holding the commands in its parse data', () => {
    const commands = [{ command: 'start flow', flow: 'greet' } as const];
    const { events, state } = receiveUserMessage(stateWith([]), { ...MESSAGE, commands }, context());
    const user = events[0] as UserUttered;
    expect(user).to.deep.include({ event: 'user', timestamp: T0, text: 'hi' });
    expect(user.parse_data.commands).to.deep.equal([{ command: 'start flow', flow: 'greet' }]);
    expect(state.latestMessage?.text).to.equal('hi');
    expect(state.stack.map((frame) => frame.flow_id)).to.deep.equal(['greet']);
    expect(events.slice(1).map((event) => event.event)).to.include('stack');
  });

  it('records no input channel and no message id as null, as Rasa does', () => {
    const user = receiveUserMessage(stateWith([]), MESSAGE, context()).events[0] as UserUttered;
    expect(user.input_channel).to.equal(null);
    expect(user.message_id).to.equal(null);
    expect(user).not.to.have.property('metadata');
  });

  it('records the channel, the message id and the metadata it is given', () => {
    const message = { ...MESSAGE, inputChannel: 'rest', messageId: 'm-1', metadata: { locale: 'de' } };
    const user = receiveUserMessage(stateWith([]), message, context()).events[0] as UserUttered;
    expect(user).to.deep.include({ input_channel: 'rest', message_id: 'm-1', metadata: { locale: 'de' } });
  });

  it('drops frames of flows the assistant no longer has, in one stack event after the user event', () => {
    const stack: Stack = [
      { frame_id: 'A', flow_id: 'greet', step_id: 'say_hello', type: 'flow', frame_type: 'regular' },
      { frame_id: 'B', flow_id: 'removed_flow', step_id: 'ask', type: 'flow', frame_type: 'interrupt' },
    ];
    const { events, state } = receiveUserMessage(stateWith(stack), MESSAGE, context());
    expect(events.map((event) => event.event)).to.deep.equal(['user', 'stack']);
    expect(state.stack.map((frame) => frame.frame_id)).to.deep.equal(['A']);
  });

  it('writes no stack event when every frame is current', () => {
    const stack: Stack = [
      { frame_id: 'A', flow_id: 'greet', step_id: 'say_hello', type: 'flow', frame_type: 'regular' },
    ];
    const { events, state } = receiveUserMessage(stateWith(stack), MESSAGE, context());
    expect(events.map((event) => event.event)).to.deep.equal(['user']);
    expect(state.stack).to.deep.equal(stack);
  });
});

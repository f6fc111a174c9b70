import { expect } from 'chai';
import { DEFAULT_ENGINE_OPTIONS, type EngineContext } from '../../../src/core/engine-context.js';
import {
  applyEvent,
  createTrackerState,
  foldEvents,
  stackUpdateEvent,
} from '../../../src/core/events/index.js';
import type { Event, TrackerState } from '../../../src/core/events/index.js';
import { internalErrorEvents } from '../../../src/core/executor/internal-error.js';
import type { Stack } from '../../../src/core/stack/frames.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

// What the runtime appends when an action fails at run time: pattern_internal_error on top of the
// stack (Rasa's handling of a failed custom action), which the next prediction then runs.

const assistant = inlineAssistant({
  domain: `
    slots:
      recipient:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
  `,
});

const context: EngineContext = {
  flows: assistant.flows,
  domain: assistant.domain,
  now: 1,
  newFrameId: () => 'F9',
  options: DEFAULT_ENGINE_OPTIONS,
};

const transfer = {
  frame_id: 'F1',
  flow_id: 'transfer_money',
  step_id: 'transfer_money_0_collect_recipient',
  frame_type: 'regular',
  type: 'flow',
} as const;

function stateWith(stack: Stack): TrackerState {
  const init = createTrackerState({ senderId: 'u', initialSlots: { recipient: null } });
  const event = stackUpdateEvent([], stack, 1);
  return event ? foldEvents(init, [event]) : init;
}

function stackAfter(state: TrackerState, events: ReturnType<typeof internalErrorEvents>): Stack {
  return events.reduce(
    (current, event) => applyEvent(current, { ...event, timestamp: event.timestamp ?? 1 } as Event),
    state,
  ).stack;
}

describe('internal error after a failed action', () => {
  it('puts pattern_internal_error (default error type, no info) on top and keeps the running flow', () => {
    const state = stateWith([transfer]);
    expect(stackAfter(state, internalErrorEvents(state, context))).to.deep.equal([
      transfer,
      {
        frame_id: 'F9',
        flow_id: 'pattern_internal_error',
        step_id: 'START',
        error_type: 'rasa_internal_error_default',
        info: {},
        type: 'pattern_internal_error',
      },
    ]);
  });

  it('carries the error type it is given', () => {
    const state = stateWith([transfer]);
    const stack = stackAfter(
      state,
      internalErrorEvents(state, context, 'rasa_internal_error_user_input_too_long'),
    );
    expect(stack.at(-1)).to.include({ error_type: 'rasa_internal_error_user_input_too_long' });
  });

  it('adds nothing while pattern_internal_error itself is running (no error loop)', () => {
    const running = stateWith([transfer]);
    const stack = stackAfter(running, internalErrorEvents(running, context));
    expect(internalErrorEvents(stateWith(stack), context)).to.deep.equal([]);
    const alone = stackAfter(stateWith([]), internalErrorEvents(stateWith([]), context));
    expect(internalErrorEvents(stateWith(alone), context)).to.deep.equal([]);
  });

  it('adds pattern_internal_error to an empty stack', () => {
    const state = stateWith([]);
    expect(
      stackAfter(state, internalErrorEvents(state, context)).map((frame) => frame.flow_id),
    ).to.deep.equal(['pattern_internal_error']);
  });
});

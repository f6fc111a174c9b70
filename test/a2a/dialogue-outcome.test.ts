import { expect } from 'chai';
import {
  closingMessages,
  completedFlowOf,
  dialogueOutcome,
  publicSlots,
} from '../../src/a2a/dialogue-outcome.js';
import type { OutcomeInput } from '../../src/a2a/dialogue-outcome.js';
import { foldEvents } from '../../src/core/events/index.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import type { TrackerState } from '../../src/core/events/tracker-state.js';
import type { BotUttered, Event } from '../../src/core/events/types.js';
import type { Frame } from '../../src/core/stack/frames.js';

const SLOTS = { recipient: null, amount: null, requested_slot: null, dialogue_stack: [], csat_score: null };

function tracker(stack: Frame[], slots: Record<string, unknown> = {}): TrackerState {
  const state = createTrackerState({ senderId: 'c-1', initialSlots: SLOTS });
  return { ...state, stack, slots: { ...state.slots, ...slots } };
}

function flowFrame(flowId: string): Frame {
  return { type: 'flow', frame_type: 'regular', frame_id: `f-${flowId}`, flow_id: flowId, step_id: 'step' };
}

function patternFrame(type: `pattern_${string}`, extra: Record<string, unknown> = {}): Frame {
  return { type, frame_id: `f-${type}`, flow_id: type, step_id: 'START', ...extra };
}

const collecting = (slot: string): Frame => patternFrame('pattern_collect_information', { collect: slot });

function started(flowId: string): Event {
  return { event: 'flow_started', flow_id: flowId, timestamp: 1 };
}

function cancelled(flowId: string): Event {
  return { event: 'flow_cancelled', flow_id: flowId, step_id: 'step', timestamp: 1 };
}

function bot(text: string, buttons?: { title: string; payload: string }[]): BotUttered {
  return { event: 'bot', text, data: buttons ? { buttons } : {}, timestamp: 1 };
}

function outcome(input: Partial<OutcomeInput> & { tracker: TrackerState }) {
  return dialogueOutcome({ events: [], messages: [], includeConversationRepair: true, ...input });
}

describe('A2A dialogue outcome (dialogue → task state)', () => {
  it('a collect step waiting for its slot → input-required, naming the slot and its flow', () => {
    const result = outcome({
      tracker: tracker([flowFrame('transfer_money'), collecting('amount')], { recipient: 'Anna' }),
      events: [started('transfer_money')],
      messages: [bot('How much?')],
      includeConversationRepair: false,
    });
    expect(result.state).to.equal('input-required');
    expect(result.data).to.deep.equal({
      state: 'input-required',
      active_flow: 'transfer_money',
      awaiting: { slot: 'amount', flow_id: 'transfer_money' },
      slots: { recipient: 'Anna', amount: null },
      choices: [],
    });
  });

  it('finished with conversation repair on → input-required (the assistant offers more help)', () => {
    const result = outcome({ tracker: tracker([]), includeConversationRepair: true });
    expect(result.state).to.equal('input-required');
    expect(result.data).to.include({ state: 'input-required', active_flow: null, awaiting: null });
    expect(result.data).to.not.have.property('reason');
  });

  it('finished with conversation repair off → completed, with the finished flow and its slots', () => {
    const result = outcome({
      tracker: tracker([]),
      includeConversationRepair: false,
      completedFlow: { flow_id: 'transfer_money', slots: { recipient: 'Anna', amount: 5 } },
    });
    expect(result.state).to.equal('completed');
    expect(result.data['completed_flow']).to.deep.equal({
      flow_id: 'transfer_money',
      slots: { recipient: 'Anna', amount: 5 },
    });
  });

  it('a user flow cancelled in the turn → canceled, naming the flow (pattern cancellations do not count)', () => {
    const result = outcome({
      tracker: tracker([]),
      events: [started('pattern_cancel_flow'), cancelled('transfer_money'), cancelled('pattern_cancel_flow')],
      messages: [bot('Okay, stopping the transfer.')],
    });
    expect(result.state).to.equal('canceled');
    expect(result.data['cancel']).to.deep.equal({ by: 'user', flow_id: 'transfer_money' });
    const patternOnly = outcome({ tracker: tracker([]), events: [cancelled('pattern_chitchat')] });
    expect(patternOnly.state).to.equal('input-required');
  });

  it('a cancelled flow with another collect still waiting stays input-required', () => {
    const result = outcome({
      tracker: tracker([flowFrame('check_balance'), collecting('recipient')]),
      events: [cancelled('transfer_money')],
    });
    expect(result.state).to.equal('input-required');
  });

  it('pattern_internal_error → failed with an error, whatever else the stack holds', () => {
    const result = outcome({
      tracker: tracker([flowFrame('transfer_money'), collecting('amount')]),
      events: [started('pattern_internal_error')],
      messages: [bot('Sorry, I am having trouble with that.')],
    });
    expect(result.state).to.equal('failed');
    expect(result.data['error']).to.deep.equal({
      code: 'internal_error',
      message: 'The assistant hit an internal error in this turn.',
    });
  });

  it('human handoff → completed with handoff: true (the orchestrator takes over), repair on or off', () => {
    for (const includeConversationRepair of [true, false]) {
      const result = outcome({
        tracker: tracker([]),
        events: [started('pattern_human_handoff')],
        includeConversationRepair,
      });
      expect(result.state).to.equal('completed');
      expect(result.data['handoff']).to.equal(true);
    }
  });

  it('cannot-handle → input-required with reason cannot_handle, repair on or off', () => {
    for (const includeConversationRepair of [true, false]) {
      const result = outcome({
        tracker: tracker([]),
        events: [started('pattern_cannot_handle')],
        messages: [bot("I can't help with that.")],
        includeConversationRepair,
      });
      expect(result.state).to.equal('input-required');
      expect(result.data['reason']).to.equal('cannot_handle');
    }
  });

  it('a repair pattern still on the stack keeps the task input-required even with repair off', () => {
    const result = outcome({
      tracker: tracker([patternFrame('pattern_clarification', { names: ['a', 'b'] })]),
      includeConversationRepair: false,
    });
    expect(result.state).to.equal('input-required');
    expect(result.data['active_flow']).to.equal(null);
  });

  it('the data part: active flow is the top user flow, slots without machinery, buttons as choices, warnings', () => {
    const result = outcome({
      tracker: tracker([flowFrame('transfer_money'), flowFrame('check_balance'), collecting('recipient')], {
        requested_slot: 'recipient',
        csat_score: 3,
        dialogue_stack: [{}],
      }),
      messages: [
        bot('Who should get the money?', [
          { title: 'Anna', payload: '/SetSlots(recipient=Anna)' },
          { title: 'Bo', payload: '/SetSlots(recipient=Bo)' },
        ]),
        bot('Or type a name.', [{ title: 'Cy', payload: '/SetSlots(recipient=Cy)' }]),
      ],
      warnings: ["unknown slot 'nope' ignored"],
    });
    expect(result.data).to.deep.equal({
      state: 'input-required',
      active_flow: 'check_balance',
      awaiting: { slot: 'recipient', flow_id: 'check_balance' },
      slots: { recipient: null, amount: null },
      choices: [
        { title: 'Anna', payload: '/SetSlots(recipient=Anna)' },
        { title: 'Bo', payload: '/SetSlots(recipient=Bo)' },
        { title: 'Cy', payload: '/SetSlots(recipient=Cy)' },
      ],
      warnings: ["unknown slot 'nope' ignored"],
    });
  });

  it('publicSlots drops the internal slots only', () => {
    expect(publicSlots({ recipient: 'A', requested_slot: 'x', flow_hashes: {}, my_slot: 1 })).to.deep.equal({
      recipient: 'A',
      my_slot: 1,
    });
  });

  it("completedFlowOf gives the flow's slots as they were when it completed, from the final state", () => {
    const user = (text: string): Event => ({
      event: 'user',
      text,
      timestamp: 1,
      parse_data: { text, intent: { name: null, confidence: 0 }, entities: [] },
    });
    const slot = (name: string, value: unknown): Event => ({ event: 'slot', name, value, timestamp: 2 });
    const all: Event[] = [
      user('earlier'),
      slot('account', 'savings'), // an earlier turn's slot: not the flow's
      user('send 5 to Anna'),
      slot('recipient', 'Anna'), // set with the message that starts the flow, before flow_started
      started('transfer_money'),
      slot('amount', 3),
      slot('amount', 5),
      slot('requested_slot', 'amount'),
      { event: 'flow_completed', flow_id: 'pattern_collect_information', step_id: 's', timestamp: 3 },
      { event: 'flow_completed', flow_id: 'transfer_money', step_id: 's', timestamp: 3 },
      slot('amount', null), // reset when the flow ended
    ];
    const state = foldEvents(createTrackerState({ senderId: 's', initialSlots: {} }), all);
    expect(completedFlowOf(all.slice(-3), state)).to.deep.equal({
      flow_id: 'transfer_money',
      slots: { recipient: 'Anna', amount: 5 },
    });
    // a turn in which it did not complete reports nothing
    expect(completedFlowOf(all.slice(0, 4), state)).to.equal(undefined);
  });
});

describe('closingMessages (the bot messages of a task that ends)', () => {
  const bot = (text: string): BotUttered => ({ event: 'bot', text, data: {}, timestamp: 1 });
  const flow = (event: 'flow_started' | 'flow_completed', flowId: string): Event =>
    event === 'flow_started'
      ? { event, flow_id: flowId, timestamp: 1 }
      : { event, flow_id: flowId, step_id: 'END', timestamp: 1 };
  const events: Event[] = [
    bot('Your savings account holds $12800.'),
    flow('flow_completed', 'check_balance'),
    flow('flow_started', 'pattern_completed'),
    bot('What else can I help you with?'),
    flow('flow_completed', 'pattern_completed'),
  ];
  const texts = (messages: readonly BotUttered[]) => messages.map((message) => message.text);

  it("leaves out pattern_completed's question when the task ends without conversation repair", () => {
    expect(texts(closingMessages(events, 'completed', false))).to.deep.equal([
      'Your savings account holds $12800.',
    ]);
    expect(texts(closingMessages(events, 'canceled', false))).to.have.length(1);
  });

  it('keeps every message with conversation repair, or while the task goes on', () => {
    expect(closingMessages(events, 'completed', true)).to.have.length(2);
    expect(closingMessages(events, 'input-required', false)).to.have.length(2);
  });
});

describe('completedFlowOf after a cancellation', () => {
  it('reports no completed flow for a turn that cancelled one, even after an earlier flow completed', () => {
    const slot = (name: string, value: unknown): Event => ({ event: 'slot', name, value, timestamp: 2 });
    const earlier: Event[] = [
      started('check_balance'),
      slot('account', 'savings'),
      { event: 'flow_completed', flow_id: 'check_balance', step_id: 'END', timestamp: 2 },
      started('transfer_money'),
      slot('recipient', 'Anna'),
    ];
    const cancelTurn: Event[] = [
      started('pattern_cancel_flow'),
      cancelled('transfer_money'),
      { event: 'flow_completed', flow_id: 'pattern_cancel_flow', step_id: 'END', timestamp: 3 },
    ];
    const state = foldEvents(createTrackerState({ senderId: 's', initialSlots: {} }), [
      ...earlier,
      ...cancelTurn,
    ]);
    expect(state.flowSlots.lastCompleted?.flowId).to.equal('check_balance');
    expect(completedFlowOf(cancelTurn, state)).to.equal(undefined);
    const result = dialogueOutcome({
      tracker: state,
      events: cancelTurn,
      messages: [],
      includeConversationRepair: false,
    });
    expect(result.state).to.equal('canceled');
    expect(result.data).not.to.have.property('completed_flow');
    expect(result.data['cancel']).to.deep.equal({ by: 'user', flow_id: 'transfer_money' });
  });
});

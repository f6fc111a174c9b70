import { expect } from 'chai';
import { AppError } from '../../../src/core/errors.js';
import type { Event, TrackerState } from '../../../src/core/events/index.js';
import { applyEvent, createTrackerState, foldEvents } from '../../../src/core/events/index.js';
import {
  action,
  bot,
  collectFrame,
  flowFrame,
  freshState,
  simple,
  slot,
  stackEvent,
  T0,
  user,
} from './builders.js';

const fold = (events: readonly Event[], init: TrackerState = freshState()) => foldEvents(init, events);

describe('applyEvent (the tracker reducer)', () => {
  it('starts from the initial slots with nothing else set', () => {
    const state = freshState();
    expect(state).to.deep.include({
      senderId: 'alice',
      slots: { amount: null, recipient: null },
      stack: [],
      latestMessage: undefined,
      followupAction: null,
      paused: false,
      activeLoop: null,
      eventCount: 0,
      latestEventTime: undefined,
    });
  });

  it('counts every event and records the latest event time', () => {
    const state = fold([action('action_listen', T0 + 1), user('hi', { timestamp: T0 + 2 })]);
    expect(state.eventCount).to.equal(2);
    expect(state.latestEventTime).to.equal(T0 + 2);
  });

  it('never changes the state it is given', () => {
    const before = fold([slot('amount', 5), stackEvent([], [flowFrame('F1', 'transfer', 'START')])]);
    const snapshot = JSON.stringify({ ...before, stackHistory: [...before.stackHistory] });
    applyEvent(before, simple('restart'));
    applyEvent(before, slot('amount', 7));
    expect(JSON.stringify({ ...before, stackHistory: [...before.stackHistory] })).to.equal(snapshot);
  });

  describe('user', () => {
    it('becomes the latest message, sets the input channel and clears the followup action', () => {
      const message = user('send money', { channel: 'socketio' });
      const state = fold([{ event: 'followup', timestamp: T0, name: 'utter_x' }, message]);
      expect(state.latestMessage).to.equal(message);
      expect(state.latestInputChannel).to.equal('socketio');
      expect(state.followupAction).to.equal(null);
    });
  });

  describe('action', () => {
    it('sets latest action, its name, and clears the followup action', () => {
      const state = fold([{ event: 'followup', timestamp: T0, name: 'utter_x' }, action('utter_x')]);
      expect(state.latestAction).to.deep.equal({ action_name: 'utter_x' });
      expect(state.latestActionName).to.equal('utter_x');
      expect(state.followupAction).to.equal(null);
    });

    it('uses action_text for an end-to-end bot text', () => {
      const state = fold([{ event: 'action', timestamp: T0, name: '', action_text: 'Hello!' }]);
      expect(state.latestAction).to.deep.equal({ action_text: 'Hello!' });
      expect(state.latestActionName).to.equal('Hello!');
    });

    it('marks where the current session starts at action_session_start', () => {
      const state = fold([
        action('action_session_start'),
        simple('session_started'),
        action('action_listen'),
      ]);
      const later = fold([user('hi'), action('action_session_start'), simple('session_started')], state);
      expect(state.sessionStartIndex).to.equal(0);
      expect(later.sessionStartIndex).to.equal(4);
    });
  });

  describe('slot', () => {
    it('sets a declared slot and records an undeclared one', () => {
      const state = fold([slot('amount', 50), slot('surprise', 'yes')]);
      expect(state.slots).to.deep.equal({ amount: 50, recipient: null, surprise: 'yes' });
    });

    it('records who filled the slot and forgets it when a later value carries none', () => {
      const filled = fold([slot('amount', 50, 'LLM'), slot('recipient', 'Joe', 'NLU')]);
      expect(filled.slotFilledBy).to.deep.equal({ amount: 'LLM', recipient: 'NLU' });
      const overwritten = applyEvent(filled, slot('amount', 60));
      expect(overwritten.slotFilledBy).to.deep.equal({ recipient: 'NLU' });
    });

    it('shares every untouched field with the previous state', () => {
      const before = fold([stackEvent([], [flowFrame('F1', 'transfer', 'START')]), bot('hi')]);
      const after = applyEvent(before, slot('amount', 1));
      expect(after.stack).to.equal(before.stack);
      expect(after.stackHistory).to.equal(before.stackHistory);
      expect(after.lastBotTurn).to.equal(before.lastBotTurn);
      expect(after.initialSlots).to.equal(before.initialSlots);
    });
  });

  describe('stack', () => {
    it('applies the patch to the stack', () => {
      const frames = [flowFrame('F1', 'transfer', 'ask_amount'), collectFrame('F2', 'amount')];
      const state = fold([stackEvent([], frames.slice(0, 1)), stackEvent(frames.slice(0, 1), frames)]);
      expect(state.stack).to.deep.equal(frames);
    });

    it('keeps the stack and reports an update that cannot be applied', () => {
      const first = stackEvent([], [flowFrame('F1', 'transfer', 'START')]);
      const state = fold([first, { event: 'stack', timestamp: T0, update: 'not json' }]);
      expect(state.stack).to.deep.equal([flowFrame('F1', 'transfer', 'START')]);
      expect(state.stackUpdateFailures).to.have.length(1);
      expect(state.stackUpdateFailures[0]?.eventIndex).to.equal(1);
    });
  });

  describe('restart and resets', () => {
    const busy = () =>
      fold([
        action('action_listen'),
        user('hi', { channel: 'rest' }),
        slot('amount', 5, 'LLM'),
        stackEvent([], [flowFrame('F1', 'transfer', 'ask_amount')]),
        { event: 'active_loop', timestamp: T0, name: 'some_form' },
        simple('pause'),
        bot('hello'),
        { event: 'followup', timestamp: T0, name: 'utter_x' },
      ]);

    it('restart resets slots, empties the stack, clears message, pause and loop, and schedules a session start', () => {
      const state = applyEvent(busy(), simple('restart'));
      expect(state).to.deep.include({
        slots: { amount: null, recipient: null },
        slotFilledBy: {},
        stack: [],
        latestMessage: undefined,
        latestAction: undefined,
        paused: false,
        activeLoop: null,
        followupAction: 'action_session_start',
        lastBotTurn: [],
        afterRestartIndex: 9,
      });
      expect(state.stackHistory.size).to.equal(0);
      expect(state.latestInputChannel).to.equal('rest');
    });

    it('session_started resets like a restart, the stack included (Rasa: SessionStarted applies _reset), and schedules nothing', () => {
      const before = busy();
      expect(before.stack).to.not.deep.equal([]);
      const state = applyEvent(before, simple('session_started'));
      expect(state.slots).to.deep.equal({ amount: null, recipient: null });
      expect(state).to.deep.include({
        latestMessage: undefined,
        paused: false,
        activeLoop: null,
        followupAction: null,
      });
      expect(state.stack).to.deep.equal([]);
      expect(state.stackHistory.size).to.equal(0);
    });

    it('reset_slots resets only the slots', () => {
      const before = busy();
      const state = applyEvent(before, simple('reset_slots'));
      expect(state.slots).to.deep.equal({ amount: null, recipient: null });
      expect(state.slotFilledBy).to.deep.equal({});
      expect(state.stack).to.equal(before.stack);
      expect(state.paused).to.equal(true);
      expect(state.latestMessage).to.equal(before.latestMessage);
    });

    it('routing_session_ended resets like a restart but keeps the shared slots, who filled them, and the recent messages', () => {
      const init = createTrackerState({
        senderId: 'alice',
        initialSlots: { amount: null, recipient: null },
        sharedSlots: ['recipient', 'not_in_domain'],
      });
      const before = fold(
        [
          user('hi'),
          slot('amount', 5, 'LLM'),
          slot('recipient', 'Joe', 'NLU'),
          stackEvent([], [flowFrame('F1', 'transfer', 'ask_amount')]),
          bot('hello'),
        ],
        init,
      );
      const state = applyEvent(before, simple('routing_session_ended'));
      expect(state.slots).to.deep.equal({ amount: null, recipient: 'Joe' });
      expect(state.slotFilledBy).to.deep.equal({ recipient: 'NLU' });
      expect(state.stack).to.deep.equal([]);
      expect(state.followupAction).to.equal(null);
      expect(state.latestMessage).to.equal(undefined);
      expect(state.recentMessages).to.equal(before.recentMessages);
    });

    it('resets undeclared slots away and keeps the initial values object', () => {
      const state = fold([slot('surprise', 1), simple('reset_slots')]);
      expect(state.slots).to.equal(state.initialSlots);
    });
  });

  it('pause and resume toggle paused', () => {
    expect(fold([simple('pause')]).paused).to.equal(true);
    expect(fold([simple('pause'), simple('resume')]).paused).to.equal(false);
  });

  it('followup sets the followup action', () => {
    expect(fold([{ event: 'followup', timestamp: T0, name: 'action_x' }]).followupAction).to.equal(
      'action_x',
    );
  });

  it('active_loop activates and deactivates a loop', () => {
    const active = fold([{ event: 'active_loop', timestamp: T0, name: 'form' }]);
    expect(active.activeLoop).to.equal('form');
    expect(applyEvent(active, { event: 'active_loop', timestamp: T0, name: null }).activeLoop).to.equal(null);
  });

  describe('entities', () => {
    const city = { entity: 'city', value: 'Berlin' };

    it('merges new entities into the latest message while the last action is a listen', () => {
      const state = fold([
        action('action_listen'),
        user('hi'),
        { event: 'entities', timestamp: T0, entities: [city] },
      ]);
      expect(state.latestMessage?.parse_data.entities).to.deep.equal([city]);
      const again = applyEvent(state, { event: 'entities', timestamp: T0, entities: [city] });
      expect(again.latestMessage).to.equal(state.latestMessage);
    });

    it('ignores entities before any user message', () => {
      const state = fold([action('action_listen'), { event: 'entities', timestamp: T0, entities: [city] }]);
      expect(state.latestMessage).to.equal(undefined);
    });

    it('ignores entities after another action ran', () => {
      const state = fold([
        user('hi'),
        action('utter_x'),
        { event: 'entities', timestamp: T0, entities: [city] },
      ]);
      expect(state.latestMessage?.parse_data.entities).to.deep.equal([]);
    });
  });

  it('changes nothing but the count and time for informational events', () => {
    const before = fold([slot('amount', 1), user('hi'), action('x')]);
    // (flow_started, flow_completed and flow_cancelled of user flows keep the flow slot record: see below;
    // those of patterns change nothing)
    const informational: Event[] = [
      { event: 'flow_started', timestamp: T0 + 9, flow_id: 'pattern_f' },
      { event: 'flow_interrupted', timestamp: T0 + 9, flow_id: 'f', step_id: 's' },
      { event: 'flow_resumed', timestamp: T0 + 9, flow_id: 'f', step_id: 's' },
      { event: 'flow_completed', timestamp: T0 + 9, flow_id: 'pattern_f', step_id: 's' },
      { event: 'flow_cancelled', timestamp: T0 + 9, flow_id: 'pattern_f', step_id: 's' },
      { event: 'session_ended', timestamp: T0 + 9 },
      { event: 'action_execution_rejected', timestamp: T0 + 9, name: 'x' },
      { event: 'reminder', timestamp: T0 + 9, intent: 'i', date_time: '2024-01-01T00:00:00' },
      { event: 'cancel_reminder', timestamp: T0 + 9 },
      { event: 'loop_interrupted', timestamp: T0 + 9, is_interrupted: true },
      { event: 'export', timestamp: T0 + 9 },
    ];
    for (const event of informational) {
      expect(applyEvent(before, event), event.event).to.deep.equal({
        ...before,
        eventCount: before.eventCount + 1,
        latestEventTime: T0 + 9,
      });
    }
  });

  it('refuses rewind and undo, which need the history, with a typed error', () => {
    for (const type of ['rewind', 'undo'] as const) {
      expect(() => applyEvent(fold([user('hi')]), simple(type)))
        .to.throw(AppError)
        .that.deep.includes({ code: 'EVENT_NEEDS_HISTORY', details: { event: type, eventIndex: 1 } });
    }
  });
});

describe('recent messages (the conversation an LLM prompt shows)', () => {
  it('starts with the first message of the conversation', () => {
    expect(fold([action('action_listen'), user('hi')]).recentMessages).to.deep.equal([
      { event: 'user', text: 'hi' },
    ]);
  });

  it("keeps a message's sender, text and buttons, not the whole event", () => {
    const buttons = [{ title: 'Savings', payload: '/SetSlots(account=savings)' }];
    const withButtons: Event = {
      ...bot('Which account?'),
      data: { buttons, custom: { big: 'x'.repeat(100) } },
    };
    const noButtons: Event = { ...bot('x'), text: null, data: { buttons: null } };
    expect(fold([user('hi'), withButtons, noButtons]).recentMessages).to.deep.equal([
      { event: 'user', text: 'hi' },
      { event: 'bot', text: 'Which account?', buttons },
      { event: 'bot', text: null, buttons: [] },
    ]);
  });

  it('keeps the latest 40 user and bot messages in order, and forgets them on restart and session start', () => {
    const events: Event[] = [];
    for (let turn = 0; turn < 30; turn += 1)
      events.push(user(`u${turn}`), action('utter_x'), bot(`b${turn}`));
    const state = fold(events);
    expect(state.recentMessages).to.have.length(40);
    expect(state.recentMessages.map((message) => message.text).slice(-3)).to.deep.equal([
      'b28',
      'u29',
      'b29',
    ]);
    expect(state.recentMessages[0]?.text).to.equal('u10');
    const oneMore = applyEvent(state, user('u30'));
    expect(oneMore.recentMessages).to.have.length(40);
    expect(oneMore.recentMessages[0]?.text).to.equal('b10');
    expect(fold([simple('restart')], state).recentMessages).to.deep.equal([]);
    expect(fold([simple('session_started')], state).recentMessages).to.deep.equal([]);
  });
});

describe('flow slots (what a completed flow reports, without the event log)', () => {
  const flowEvent = (event: 'flow_started' | 'flow_completed' | 'flow_cancelled', flowId: string): Event =>
    event === 'flow_started'
      ? { event, flow_id: flowId, timestamp: T0 }
      : { event, flow_id: flowId, step_id: 'END', timestamp: T0 };

  it('gives a flow the slots set while it ran and those set earlier in the turn that started it', () => {
    const state = fold([
      user('earlier turn'),
      slot('amount', 7),
      user('send money to Anna'),
      slot('recipient', 'Anna'),
      flowEvent('flow_started', 'transfer'),
      flowEvent('flow_started', 'pattern_collect_information'),
      user('5'),
      slot('amount', 5),
      flowEvent('flow_completed', 'pattern_collect_information'),
      flowEvent('flow_completed', 'transfer'),
      slot('amount', null),
      slot('recipient', null),
    ]);
    expect(state.flowSlots.lastCompleted).to.deep.equal({
      flowId: 'transfer',
      slots: { recipient: 'Anna', amount: 5 },
    });
    expect(state.flowSlots.running).to.deep.equal({});
  });

  it('shares a slot set while flows are stacked with each of them, and skips empty values', () => {
    const state = fold([
      user('hi'),
      flowEvent('flow_started', 'outer'),
      slot('recipient', 'Bo'),
      flowEvent('flow_started', 'inner'),
      slot('amount', 3),
      slot('recipient', null),
      flowEvent('flow_completed', 'inner'),
    ]);
    expect(state.flowSlots.lastCompleted).to.deep.equal({ flowId: 'inner', slots: { amount: 3 } });
    expect(state.flowSlots.running).to.deep.equal({ outer: ['recipient', 'amount'] });
  });

  it('keeps a flow whose id is `__proto__` as a flow like any other', () => {
    const state = fold([
      user('hi'),
      flowEvent('flow_started', '__proto__'),
      slot('amount', 3),
      flowEvent('flow_completed', '__proto__'),
    ]);
    expect(state.flowSlots.lastCompleted).to.deep.equal({ flowId: '__proto__', slots: { amount: 3 } });
    expect(Object.getPrototypeOf(state.flowSlots.running)).to.equal(Object.prototype);
  });

  it('keeps a slot named `__proto__` an ordinary slot, with its filler', () => {
    const state = fold([slot('__proto__', { polluted: true }, 'NLU'), slot('amount', 1)]);
    expect(Object.getPrototypeOf(state.slots)).to.equal(Object.prototype);
    expect(Object.getPrototypeOf(state.slotFilledBy)).to.equal(Object.prototype);
    expect(Object.hasOwn(state.slots, '__proto__')).to.equal(true);
    expect(state.slotFilledBy).to.deep.equal({ ['__proto__']: 'NLU' });
  });

  it('moves a refilled slot to the end of slotFilledBy and drops it when no filler is named', () => {
    const state = fold([slot('amount', 1, 'NLU'), slot('recipient', 'Ann', 'LLM'), slot('amount', 2, 'LLM')]);
    expect(Object.keys(state.slotFilledBy)).to.deep.equal(['recipient', 'amount']);
    expect(applyEvent(state, slot('recipient', null)).slotFilledBy).to.deep.equal({ amount: 'LLM' });
  });

  it('reports nothing for a cancelled flow and forgets everything on restart', () => {
    const cancelled = fold([
      user('hi'),
      flowEvent('flow_started', 'transfer'),
      slot('amount', 3),
      flowEvent('flow_cancelled', 'transfer'),
    ]);
    expect(cancelled.flowSlots.lastCompleted).to.equal(null);
    expect(cancelled.flowSlots.running).to.deep.equal({});
    const running = fold([user('hi'), flowEvent('flow_started', 'transfer'), slot('amount', 3)]);
    expect(fold([simple('restart')], running).flowSlots).to.deep.equal({
      sinceUserMessage: [],
      running: {},
      lastCompleted: null,
    });
  });
});

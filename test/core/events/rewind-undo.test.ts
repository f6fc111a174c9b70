import { expect } from 'chai';
import { AppError } from '../../../src/core/errors.js';
import type { Event } from '../../../src/core/events/index.js';
import {
  appliedEvents,
  applyEvents,
  eventsWithoutReverted,
  foldEvents,
} from '../../../src/core/events/index.js';
import { action, bot, flowFrame, freshState, simple, slot, stackEvent, T0, user } from './builders.js';

const atAmount = [flowFrame('F1', 'transfer', 'ask_amount')];
const atRecipient = [flowFrame('F1', 'transfer', 'ask_recipient')];

describe('rewind and undo', () => {
  describe('appliedEvents (Rasa applied_events)', () => {
    it('rewind removes the latest user message and everything after it, and the listen before it', () => {
      const kept = [action('action_listen'), user('a'), action('utter_x'), bot('x')];
      const reverted = [action('action_listen'), user('b'), action('action_back')];
      expect(appliedEvents([...kept, ...reverted, simple('rewind')])).to.deep.equal(kept);
    });

    it('undo removes back to and including the latest action event', () => {
      const kept = [action('action_listen'), user('a'), action('utter_x'), slot('amount', 1)];
      expect(appliedEvents([...kept, action('action_undo'), simple('undo')])).to.deep.equal(kept);
      expect(appliedEvents([...kept, simple('undo')])).to.deep.equal(kept.slice(0, 2));
    });

    it('starts after the latest restart or session start, and never reverts past it', () => {
      const before = [user('old'), action('x')];
      const after = [action('action_listen'), bot('y')];
      expect(appliedEvents([...before, simple('restart'), ...after])).to.deep.equal(after);
      expect(appliedEvents([...before, simple('session_started'), ...after])).to.deep.equal(after);
      expect(appliedEvents([...before, simple('session_started'), bot('z'), simple('rewind')])).to.deep.equal(
        [],
      );
      expect(
        eventsWithoutReverted([...before, simple('session_started'), bot('z'), simple('rewind')]),
      ).to.deep.equal([...before, simple('session_started')]);
    });

    it('applies several reverts in order', () => {
      const events = [
        action('action_listen'),
        user('a'),
        action('action_listen'),
        user('b'),
        simple('rewind'),
        action('utter_x'),
        simple('undo'),
      ];
      expect(appliedEvents(events)).to.deep.equal([action('action_listen'), user('a')]);
    });
  });

  describe('folding a log with reverts', () => {
    const log: Event[] = [
      action('action_listen', T0 + 1),
      user('send money', { timestamp: T0 + 2 }),
      stackEvent([], atAmount, T0 + 3),
      slot('amount', 10, 'LLM'),
      action('action_listen', T0 + 4),
      user('to Joe', { timestamp: T0 + 5, channel: 'socketio' }),
      slot('recipient', 'Joe', 'LLM'),
      stackEvent(atAmount, atRecipient, T0 + 6),
      action('action_back', T0 + 7),
      simple('rewind', T0 + 8),
    ];

    it('gives the state of the applied events, with the log facts of the whole log', () => {
      const state = foldEvents(freshState(), log);
      const applied = foldEvents(freshState(), appliedEvents(log));
      expect(state.slots).to.deep.equal({ amount: 10, recipient: null });
      expect(state.stack).to.deep.equal(atAmount);
      expect(state.latestMessage?.text).to.equal('send money');
      expect(state.slotFilledBy).to.deep.equal({ amount: 'LLM' });
      expect(state.stackHistory.has('transfer::ask_recipient')).to.equal(false);
      expect(state).to.deep.equal({
        ...applied,
        eventCount: log.length,
        latestEventTime: T0 + 8,
        latestInputChannel: 'socketio',
      });
    });

    it('applyEvents re-folds only at the revert and agrees with a full fold', () => {
      const prior = log.slice(0, 6);
      const state = foldEvents(freshState(), prior);
      expect(applyEvents(state, prior, log.slice(6))).to.deep.equal(foldEvents(freshState(), log));
    });

    it('keeps applying ordinary events after the revert', () => {
      const more = [action('action_listen'), user('to Ann'), slot('recipient', 'Ann')];
      const state = foldEvents(freshState(), [...log, ...more]);
      expect(state.slots).to.deep.equal({ amount: 10, recipient: 'Ann' });
      expect(state.eventCount).to.equal(log.length + 3);
    });

    it('rewinds inside a new session to its empty stack, not to the stack of the session before', () => {
      const events: Event[] = [
        stackEvent([], atAmount),
        action('action_session_start'),
        simple('session_started'),
        action('action_listen'),
        user('hi'),
        stackEvent([], atRecipient),
        simple('rewind'),
      ];
      const state = foldEvents(freshState(), events);
      expect(state.stack).to.deep.equal([]);
      expect(state.sessionStartIndex).to.equal(1);
    });

    it('folds an undo by reverting the latest action', () => {
      const events: Event[] = [action('action_listen'), user('hi'), action('utter_greet'), simple('undo')];
      const state = foldEvents(freshState(), events);
      expect(state.latestActionName).to.equal('action_listen');
      expect(state.eventCount).to.equal(4);
    });

    it('refuses prior events that do not match the state', () => {
      const state = foldEvents(freshState(), log.slice(0, 6));
      expect(() => applyEvents(state, log.slice(0, 5), [simple('undo')]))
        .to.throw(AppError)
        .that.deep.includes({ code: 'EVENT_NEEDS_HISTORY', details: { expected: 6, given: 5 } });
    });
  });
});

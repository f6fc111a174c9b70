import { expect } from 'chai';
import type { Stack } from '../../../src/core/stack/frames.js';
import type { Event } from '../../../src/core/events/index.js';
import { foldEvents, latestStackAt, stackHistoryKey } from '../../../src/core/events/index.js';
import { action, bot, collectFrame, flowFrame, freshState, simple, stackEvent, user } from './builders.js';

/** Stack events that walk through the given stacks in order. */
function walk(...stacks: Stack[]): Event[] {
  return stacks.map((stack, index) => stackEvent(index === 0 ? [] : (stacks[index - 1] as Stack), stack));
}

describe('tracker history kept by the reducer', () => {
  describe('stackHistory', () => {
    const transferAtAmount: Stack = [flowFrame('F1', 'transfer', 'ask_amount')];
    const collectingAmount: Stack = [...transferAtAmount, collectFrame('F2', 'amount')];
    const transferAtRecipient: Stack = [flowFrame('F1', 'transfer', 'ask_recipient')];

    it('maps the top user flow and step to the latest stack seen there (pattern tops are not recorded)', () => {
      const state = foldEvents(freshState(), walk(transferAtAmount, collectingAmount, transferAtRecipient));
      expect(latestStackAt(state, 'transfer', 'ask_amount')).to.deep.equal(transferAtAmount);
      expect(latestStackAt(state, 'pattern_collect_information', 'start')).to.equal(undefined);
      expect(latestStackAt(state, 'transfer', 'ask_recipient')).to.deep.equal(transferAtRecipient);
      expect(latestStackAt(state, 'transfer', 'nowhere')).to.equal(undefined);
    });

    it('keeps the most recent stack for a step that is visited again', () => {
      const again: Stack = [flowFrame('F7', 'transfer', 'ask_amount')];
      const otherFlow: Stack = [flowFrame('F9', 'other', 'x')];
      const state = foldEvents(freshState(), walk(transferAtAmount, otherFlow, again));
      expect(latestStackAt(state, 'transfer', 'ask_amount')).to.deep.equal(again);
      expect(latestStackAt(state, 'other', 'x')).to.deep.equal(otherFlow);
    });

    it('has one entry per distinct top step, however long the conversation', () => {
      const stacks = Array.from({ length: 300 }, (_, i) =>
        i % 2 === 0 ? transferAtAmount : [flowFrame('F1', 'transfer', `step_${i % 6}`)],
      );
      const state = foldEvents(freshState(), walk(...stacks));
      expect([...state.stackHistory.keys()].sort()).to.deep.equal(
        ['ask_amount', 'step_1', 'step_3', 'step_5'].map((step) => stackHistoryKey('transfer', step)),
      );
    });

    it('records a user flow pushed with patterns above it as the stack up to that flow', () => {
      const state = foldEvents(freshState(), walk([...collectingAmount, collectFrame('F3', 'recipient')]));
      expect(latestStackAt(state, 'transfer', 'ask_amount')).to.deep.equal(transferAtAmount);
    });

    it('records nothing for a stack of patterns only', () => {
      const state = foldEvents(freshState(), walk([collectFrame('F3', 'amount')]));
      expect(state.stackHistory.size).to.equal(0);
    });

    it('records nothing for an empty stack and is cleared by a restart', () => {
      const popped = foldEvents(freshState(), walk(transferAtAmount, []));
      expect(popped.stackHistory.size).to.equal(1);
      const restarted = foldEvents(popped, [simple('restart')]);
      expect(restarted.stackHistory.size).to.equal(0);
    });
  });

  describe('bot turns', () => {
    it('collects the bot events since the latest user message', () => {
      const hello = bot('hello');
      const ask = bot('how much?');
      const state = foldEvents(freshState(), [
        user('hi'),
        action('utter_hello'),
        hello,
        action('utter_ask'),
        ask,
      ]);
      expect(state.lastBotTurn).to.deep.equal([hello, ask]);
      expect(state.previousBotTurn).to.deep.equal([]);
    });

    it('keeps the previous turn when a new user message arrives', () => {
      const ask = bot('how much?');
      const state = foldEvents(freshState(), [user('hi'), ask, action('action_listen'), user('repeat that')]);
      expect(state.lastBotTurn).to.deep.equal([]);
      expect(state.previousBotTurn).to.deep.equal([ask]);
    });

    it('counts bot events before any user message as a turn', () => {
      const greeting = bot('welcome');
      const state = foldEvents(freshState(), [action('action_session_start'), greeting, user('hi')]);
      expect(state.previousBotTurn).to.deep.equal([greeting]);
    });

    it('forgets both turns on a restart', () => {
      const state = foldEvents(freshState(), [user('a'), bot('x'), user('b'), bot('y'), simple('restart')]);
      expect(state.lastBotTurn).to.deep.equal([]);
      expect(state.previousBotTurn).to.deep.equal([]);
    });
  });
});

import { expect } from 'chai';
import type { Stack } from '../../../src/core/stack/frames.js';
import type { Event, TrackerState } from '../../../src/core/events/index.js';
import { applyEvent, createTrackerState } from '../../../src/core/events/index.js';
import { action, bot, collectFrame, flowFrame, slot, stackEvent, user } from './builders.js';

/** One user turn: listen, message, a slot, a stack change, an utterance. */
function turn(index: number, stack: Stack): { events: Event[]; stack: Stack } {
  const next: Stack =
    index % 2 === 0
      ? [flowFrame('F1', `flow_${index % 5}`, `step_${index % 7}`), collectFrame('F2', 'amount')]
      : [flowFrame('F1', `flow_${index % 5}`, `step_${index % 7}`)];
  return {
    stack: next,
    events: [
      action('action_listen', index),
      user(`message ${index}`, { timestamp: index }),
      slot('amount', index, 'LLM'),
      stackEvent(stack, next, index),
      action('utter_reply', index),
      bot(`reply ${index}`, index),
    ],
  };
}

/** The size of everything a state holds, counting shared objects once. */
function reachableSize(state: TrackerState): number {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const children = value instanceof Map ? [...value.values()] : Object.values(value);
    children.forEach(visit);
  };
  visit(state);
  return seen.size;
}

describe('folding long conversations', () => {
  it('folds 10,000 events while the state stays the size it had after 100 turns', () => {
    let state = createTrackerState({ senderId: 'long', initialSlots: { amount: null } });
    let stack: Stack = [];
    const sizes = new Map<number, number>();
    for (let index = 0; state.eventCount < 10_000; index += 1) {
      const next = turn(index, stack);
      stack = next.stack;
      for (const event of next.events) state = applyEvent(state, event);
      if (index === 100 || index === 1_600) sizes.set(index, reachableSize(state));
    }
    expect(state.eventCount).to.be.at.least(10_000);
    expect(state.slots).to.deep.equal({ amount: 1666 });
    expect(state.lastBotTurn).to.have.length(1);
    // 5 flows x 7 steps with a flow frame on top (stacks with a pattern on top are not recorded)
    expect(state.stackHistory.size).to.equal(35);
    expect(sizes.get(1_600)).to.be.at.most((sizes.get(100) ?? 0) * 1.2);
  });

  it('shares untouched parts between consecutive states instead of copying', () => {
    let state = createTrackerState({ senderId: 'long', initialSlots: { amount: null } });
    let stack: Stack = [];
    for (let index = 0; index < 200; index += 1) {
      const next = turn(index, stack);
      stack = next.stack;
      for (const event of next.events) state = applyEvent(state, event);
    }
    const after = applyEvent(state, bot('one more'));
    expect(after.slots).to.equal(state.slots);
    expect(after.stack).to.equal(state.stack);
    expect(after.stackHistory).to.equal(state.stackHistory);
    expect(after.latestMessage).to.equal(state.latestMessage);
    expect(after.previousBotTurn).to.equal(state.previousBotTurn);
  });
});

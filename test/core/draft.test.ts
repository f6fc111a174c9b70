import { expect } from 'chai';
import { TurnDraft } from '../../src/core/draft.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import type { Stack } from '../../src/core/stack/frames.js';

const T0 = 1_700_000_000;

const GREET: Stack = [
  { frame_id: 'A', flow_id: 'greet', step_id: 'START', type: 'flow', frame_type: 'regular' },
];
const GREET_ASKING: Stack = [
  { frame_id: 'A', flow_id: 'greet', step_id: 'ask_name', type: 'flow', frame_type: 'regular' },
];

function draft(): TurnDraft {
  return new TurnDraft({
    state: createTrackerState({ senderId: 'u', initialSlots: { name: null } }),
    context: { now: T0 },
  });
}

describe('the events of one core call (TurnDraft)', () => {
  it('shows a new stack at once and writes it as a stack event when the state is read', () => {
    const turn = draft();
    turn.setStack(GREET);
    expect(turn.stack).to.equal(GREET);
    expect(turn.state.stack).to.deep.equal(GREET);
    expect(turn.events.map((event) => event.event)).to.deep.equal(['stack']);
  });

  it('writes consecutive stack changes as one stack event, before the next other event', () => {
    const turn = draft();
    turn.setStack(GREET);
    turn.setStack(GREET_ASKING);
    turn.setSlot('name', 'Ann');
    expect(turn.events.map((event) => event.event)).to.deep.equal(['stack', 'slot']);
    expect(turn.state.stack).to.deep.equal(GREET_ASKING);
    expect(turn.slots).to.deep.include({ name: 'Ann' });
  });

  it('writes no stack event for a stack that did not change', () => {
    const turn = draft();
    turn.setStack([]);
    turn.setSlot('name', 'Ann');
    expect(turn.events.map((event) => event.event)).to.deep.equal(['slot']);
  });

  it('stamps events with the call time unless they carry their own, and folds them into the state', () => {
    const turn = draft();
    turn.setSlot('name', 'Ann', { source: 'button' });
    turn.emit({ event: 'slot', name: 'name', value: 'Bo', timestamp: T0 - 5 });
    expect(turn.events).to.deep.equal([
      { event: 'slot', name: 'name', value: 'Ann', metadata: { source: 'button' }, timestamp: T0 },
      { event: 'slot', name: 'name', value: 'Bo', timestamp: T0 - 5 },
    ]);
    expect(turn.state.slots).to.deep.include({ name: 'Bo' });
  });
});

import { expect } from 'chai';
import { applyEvents } from '../../../src/core/events/fold-events.js';
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  snapshotFromJson,
  snapshotToJson,
} from '../../../src/core/events/snapshot-json.js';
import type { TrackerState } from '../../../src/core/events/tracker-state.js';
import type { Event } from '../../../src/core/events/types.js';
import type { TrackerSnapshot } from '../../../src/core/ports.js';
import { startConversation } from '../../support/inline-assistant.js';
import { TRANSFER_SCRIPT, transferAssistant } from '../../support/store-conversation.js';

/** The state after every turn of the scripted conversation, with the whole event log. */
async function statesOfScriptedConversation(): Promise<{ states: TrackerState[]; events: readonly Event[] }> {
  const conversation = await startConversation(transferAssistant());
  const states: TrackerState[] = [];
  for (const turn of TRANSFER_SCRIPT) {
    await conversation.send(turn.text, turn.commands);
    states.push(await conversation.state());
  }
  return { states, events: await conversation.events() };
}

/** What a store does: the JSON goes through text and back. */
function throughText(snapshot: TrackerSnapshot): TrackerSnapshot | undefined {
  return snapshotFromJson(JSON.parse(JSON.stringify(snapshotToJson(snapshot))));
}

describe('tracker snapshot JSON', () => {
  let states: TrackerState[];
  let events: readonly Event[];

  before(async () => {
    ({ states, events } = await statesOfScriptedConversation());
  });

  it('exercises the interesting parts of the state (the fixture is not trivial)', () => {
    const last = states[states.length - 1] as TrackerState;
    expect(states.some((state) => state.stackHistory.size > 1)).to.equal(true);
    expect(states.some((state) => state.stack.length > 1)).to.equal(true);
    expect(states.some((state) => state.slots['recipient'] === 'Zoë')).to.equal(true);
    expect(last.previousBotTurn.length).to.be.greaterThan(0);
    expect(last.latestMessage?.text).to.equal('stop');
  });

  it('restores the state after every turn of a real conversation exactly', () => {
    for (const state of states) {
      const snapshot = { eventCount: state.eventCount, state };
      const restored = throughText(snapshot);
      expect(restored, `snapshot at ${state.eventCount} events`).to.deep.equal(snapshot);
      expect(restored?.state.stackHistory).to.be.instanceOf(Map);
      expect([...(restored?.state.stackHistory.keys() ?? [])]).to.deep.equal([...state.stackHistory.keys()]);
    }
  });

  it('restores the empty state of a new conversation (undefined fields included)', () => {
    const first = states[0] as TrackerState;
    const empty: TrackerState = {
      ...first,
      stack: [],
      stackHistory: new Map(),
      latestMessage: undefined,
      latestAction: undefined,
      latestActionName: undefined,
      latestEventTime: undefined,
      eventCount: 0,
    };
    const restored = throughText({ eventCount: 0, state: empty });
    expect(restored).to.deep.equal({ eventCount: 0, state: empty });
    expect(restored?.state).to.have.property('latestMessage', undefined);
  });

  it('continues from a restored snapshot to the same state as from the original', () => {
    const middle = states[3] as TrackerState;
    const later = events.slice(middle.eventCount);
    const restored = throughText({ eventCount: middle.eventCount, state: middle });
    const prior = events.slice(0, middle.eventCount);
    expect(applyEvents(restored?.state as TrackerState, prior, later)).to.deep.equal(
      applyEvents(middle, prior, later),
    );
  });

  it('writes plain JSON with the format and version', () => {
    const state = states[1] as TrackerState;
    const json = snapshotToJson({ eventCount: state.eventCount, state });
    expect(json.format).to.equal(SNAPSHOT_FORMAT);
    expect(json.version).to.equal(SNAPSHOT_VERSION);
    expect(JSON.parse(JSON.stringify(json))).to.deep.equal(json);
  });

  describe('ignores what this build did not write (the store replays events instead)', () => {
    const valid = (): Record<string, unknown> => {
      const state = states[2] as TrackerState;
      return JSON.parse(JSON.stringify(snapshotToJson({ eventCount: state.eventCount, state })));
    };
    const withState = (change: (state: Record<string, unknown>) => void): Record<string, unknown> => {
      const json = valid();
      change(json['state'] as Record<string, unknown>);
      return json;
    };

    it('an older or newer version', () => {
      expect(snapshotFromJson({ ...valid(), version: SNAPSHOT_VERSION - 1 })).to.equal(undefined);
      expect(snapshotFromJson({ ...valid(), version: SNAPSHOT_VERSION + 1 })).to.equal(undefined);
    });

    it('another format, or not an object at all', () => {
      expect(snapshotFromJson({ ...valid(), format: 'rasa' })).to.equal(undefined);
      expect(snapshotFromJson(null)).to.equal(undefined);
      expect(snapshotFromJson('{}')).to.equal(undefined);
      expect(snapshotFromJson([])).to.equal(undefined);
    });

    it('a state missing a field, with an unknown field, or a field of the wrong kind', () => {
      expect(snapshotFromJson(withState((state) => delete state['stackHistory']))).to.equal(undefined);
      expect(snapshotFromJson(withState((state) => (state['addedLater'] = 1)))).to.equal(undefined);
      expect(snapshotFromJson(withState((state) => (state['slots'] = [])))).to.equal(undefined);
      expect(snapshotFromJson(withState((state) => (state['stackHistory'] = [['k']])))).to.equal(undefined);
      expect(snapshotFromJson(withState((state) => (state['eventCount'] = -1)))).to.equal(undefined);
    });

    it('an event count that disagrees with the state', () => {
      expect(snapshotFromJson({ ...valid(), eventCount: 1 })).to.equal(undefined);
    });

    it('an event count or a state that is not of the right kind', () => {
      expect(snapshotFromJson({ ...valid(), eventCount: '3' })).to.equal(undefined);
      expect(snapshotFromJson({ ...valid(), state: 'state' })).to.equal(undefined);
    });

    // each field's reader checks its kind; a snapshot written by another build or damaged in the store
    // must be ignored rather than become the conversation's state
    const wrongKinds: readonly (readonly [string, unknown])[] = [
      ['senderId', 5],
      ['sharedSlots', 'city'],
      ['sharedSlots', ['city', 1]],
      ['slotFilledBy', 'LLM'],
      ['slotFilledBy', { city: 1 }],
      ['stack', 'frames'],
      ['stack', [{ frame_id: 'f1' }, 'frame']],
      ['stackHistory', 'history'],
      ['stackHistory', [['k', [], 'extra']]],
      ['stackHistory', [[1, []]]],
      ['stackHistory', [['k', 'frames']]],
      ['stackHistory', ['k']],
      ['latestMessage', { event: 'bot', text: 'hi' }],
      ['latestMessage', 'hi'],
      ['latestAction', 'action_listen'],
      ['latestActionName', 7],
      ['followupAction', 7],
      ['paused', 'no'],
      ['activeLoop', false],
      ['latestEventTime', '1700000000'],
      ['latestEventTime', Number.POSITIVE_INFINITY],
      ['sessionStartIndex', -1],
      ['sessionStartIndex', 1.5],
      ['afterRestartIndex', '0'],
      ['lastBotTurn', 'hello'],
      ['lastBotTurn', [{ event: 'user', text: 'hi' }]],
      ['lastBotTurn', ['hello']],
      ['previousBotTurn', [{ event: 'bot', text: 'a' }, { event: 'action' }]],
      ['recentMessages', 'hello'],
      [
        'recentMessages',
        [
          { event: 'user', text: 'hi' },
          { event: 'action', name: 'x' },
        ],
      ],
      ['recentMessages', [{ event: 'bot', text: 'hi', buttons: [] }, 'hi']],
      ['recentMessages', [{ event: 'bot', text: 'a bot message of version 2, without buttons' }]],
      ['stackUpdateFailures', 'failed'],
      ['stackUpdateFailures', [{ eventIndex: 1, error: 'x' }, 1]],
    ];
    for (const [field, value] of wrongKinds) {
      it(`${field}: ${JSON.stringify(value)}`, () => {
        expect(snapshotFromJson(withState((state) => (state[field] = value)))).to.equal(undefined);
      });
    }
  });

  it('restores the fields that only a paused, scheduled or channel-bound conversation sets', () => {
    const state = states[2] as TrackerState;
    const busy: TrackerState = {
      ...state,
      followupAction: 'action_session_start',
      activeLoop: 'some_form',
      latestInputChannel: 'socketio',
      paused: true,
    };
    expect(throughText({ eventCount: busy.eventCount, state: busy })).to.deep.equal({
      eventCount: busy.eventCount,
      state: busy,
    });
  });
});

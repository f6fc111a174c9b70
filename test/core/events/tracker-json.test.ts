import { expect } from 'chai';
import type { Event } from '../../../src/core/events/index.js';
import { foldEvents, trackerFromJson, trackerToJson } from '../../../src/core/events/index.js';
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

const INITIAL_SLOTS = { amount: null, recipient: null };
const atAmount = [flowFrame('F1', 'transfer', 'ask_amount'), collectFrame('F2', 'amount')];

const conversation: Event[] = [
  action('action_session_start', T0),
  simple('session_started', T0),
  action('action_listen', T0 + 1),
  user('send money', { timestamp: T0 + 2, channel: 'rest' }),
  { event: 'flow_started', timestamp: T0 + 3, flow_id: 'transfer' },
  stackEvent([], atAmount, T0 + 3),
  slot('recipient', 'Joe', 'LLM'),
  action('utter_ask_amount', T0 + 4),
  bot('How much?', T0 + 4),
  action('action_listen', T0 + 5),
];

describe('tracker JSON (current_state)', () => {
  const state = foldEvents(freshState(INITIAL_SLOTS), conversation);

  it('has exactly the fields of Rasa current_state', () => {
    const json = trackerToJson(state, conversation, { verbosity: 'ALL' });
    expect(json).to.have.all.keys(
      'sender_id',
      'slots',
      'latest_message',
      'latest_event_time',
      'followup_action',
      'paused',
      'stack',
      'events',
      'latest_input_channel',
      'active_loop',
      'latest_action',
      'latest_action_name',
    );
    expect(json).to.deep.include({
      sender_id: 'alice',
      slots: { amount: null, recipient: 'Joe' },
      latest_event_time: T0 + 5,
      followup_action: null,
      paused: false,
      stack: atAmount,
      latest_input_channel: 'rest',
      active_loop: {},
      latest_action: { action_name: 'action_listen' },
      latest_action_name: 'action_listen',
    });
  });

  it('gives the latest message as its parse data with text, message id and metadata', () => {
    const json = trackerToJson(state, conversation, { verbosity: 'NONE' });
    expect(json.latest_message).to.deep.equal({
      text: 'send money',
      intent: { name: null, confidence: 0 },
      entities: [],
      message_id: 'm-send money',
      metadata: {},
    });
  });

  it('writes null and empty objects for a conversation with nothing in it', () => {
    const json = trackerToJson(freshState(INITIAL_SLOTS), [], { verbosity: 'ALL' });
    expect(json).to.deep.equal({
      sender_id: 'alice',
      slots: INITIAL_SLOTS,
      latest_message: null,
      latest_event_time: null,
      followup_action: null,
      paused: false,
      stack: [],
      events: [],
      latest_input_channel: null,
      active_loop: {},
      latest_action: {},
      latest_action_name: null,
    });
  });

  it('writes an active loop as {name}', () => {
    const events: Event[] = [{ event: 'active_loop', timestamp: T0, name: 'form' }];
    const json = trackerToJson(foldEvents(freshState(), events), events, { verbosity: 'NONE' });
    expect(json.active_loop).to.deep.equal({ name: 'form' });
  });

  describe('events by verbosity', () => {
    const events: Event[] = [
      user('old'),
      simple('restart'),
      action('action_listen'),
      user('a'),
      action('action_listen'),
      user('b'),
      simple('rewind'),
    ];
    const folded = foldEvents(freshState(), events);
    const eventsFor = (verbosity: 'ALL' | 'AFTER_RESTART' | 'APPLIED' | 'NONE') =>
      trackerToJson(folded, events, { verbosity }).events;

    it('ALL gives every event', () => expect(eventsFor('ALL')).to.deep.equal(events));
    it('AFTER_RESTART gives the events after the latest restart', () =>
      expect(eventsFor('AFTER_RESTART')).to.deep.equal(events.slice(2)));
    it('APPLIED leaves out reverted events', () =>
      expect(eventsFor('APPLIED')).to.deep.equal([action('action_listen'), user('a')]));
    it('NONE gives null', () => expect(eventsFor('NONE')).to.equal(null));
    it('AFTER_RESTART after a restart that opens the log gives the events after it', () => {
      const log: Event[] = [simple('restart'), user('a')];
      expect(
        trackerToJson(foldEvents(freshState(), log), log, { verbosity: 'AFTER_RESTART' }).events,
      ).to.deep.equal([user('a')]);
    });
    it('AFTER_RESTART without a restart gives every event', () => {
      const log: Event[] = [action('action_listen'), user('a')];
      expect(
        trackerToJson(foldEvents(freshState(), log), log, { verbosity: 'AFTER_RESTART' }).events,
      ).to.deep.equal(log);
    });
  });

  it('round-trips: folding the events of the JSON gives the same state', () => {
    const wire: unknown = JSON.parse(
      JSON.stringify(trackerToJson(state, conversation, { verbosity: 'ALL' })),
    );
    const result = trackerFromJson(wire, { initialSlots: INITIAL_SLOTS, now: 0 });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.state).to.deep.equal(state);
    expect(result.events).to.deep.equal(conversation);
  });

  it('reads a tracker without events as a new conversation with the given slots', () => {
    const result = trackerFromJson(
      { sender_id: 'x' },
      { initialSlots: INITIAL_SLOTS, now: 0, sharedSlots: ['amount'] },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.events).to.deep.equal([]);
    expect(result.state).to.deep.include({ senderId: 'x', slots: INITIAL_SLOTS, sharedSlots: ['amount'] });
  });

  it('reports a tracker without a sender id or with bad events', () => {
    expect(trackerFromJson({ events: [] }, { initialSlots: {}, now: 0 })).to.deep.equal({
      ok: false,
      errors: [{ index: -1, error: 'a tracker needs a string "sender_id"' }],
    });
    const bad = trackerFromJson(
      { sender_id: 'x', events: [{ event: 'nope' }] },
      { initialSlots: {}, now: 0 },
    );
    expect(!bad.ok && bad.errors[0]?.index).to.equal(0);
  });
});

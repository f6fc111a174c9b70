import { expect } from 'chai';
import { dialogueEventsOf } from '../../../src/core/dialogue/dialogue-events.js';
import type { DialogueEvent } from '../../../src/core/dialogue/dialogue-events.js';
import type { Event } from '../../../src/core/events/types.js';

let time = 0;
const user = (intent: string | null, entities: readonly string[] = []): Event => ({
  event: 'user',
  timestamp: (time += 1),
  text: String(intent),
  parse_data: {
    text: String(intent),
    intent: { name: intent, confidence: 1 },
    entities: entities.map((entity) => ({ entity, value: 'x' })),
  },
});
const action = (name: string, hideRuleTurn = false): Event => ({
  event: 'action',
  timestamp: (time += 1),
  name,
  ...(hideRuleTurn ? { hide_rule_turn: true } : {}),
});
const slot = (name: string, value: unknown): Event => ({
  event: 'slot',
  timestamp: (time += 1),
  name,
  value,
});
const loop = (name: string | null): Event => ({ event: 'active_loop', timestamp: (time += 1), name });
const marker = (event: 'restart' | 'session_started' | 'rewind' | 'undo' | 'routing_session_ended'): Event =>
  ({ event, timestamp: (time += 1) }) as Event;

/** The dialogue events in short: `intent`, `>action`, `slot=value`, `loop:name`. */
function short(events: readonly DialogueEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'user':
        return [event.intent ?? '?', ...event.entities].join('+');
      case 'action':
        return `>${event.name}`;
      case 'slot':
        return `${event.name}=${JSON.stringify(event.value)}`;
      default:
        return `loop:${event.name ?? 'null'}`;
    }
  });
}

const of = (events: readonly Event[], shared: readonly string[] = []): string[] =>
  short(dialogueEventsOf(events, shared));

describe("the events the NLU-based policies read (Rasa's applied_events)", () => {
  it('reads intents with their entity names (sorted, once each), actions, slots and active loops', () => {
    expect(
      of([
        action('action_listen'),
        user('book', ['time', 'city', 'time']),
        slot('city', 'Rome'),
        loop('form'),
      ]),
    ).to.deep.equal(['>action_listen', 'book+city+time', 'city="Rome"', 'loop:form']);
    expect(of([action('action_listen'), loop(null)])).to.deep.equal(['>action_listen', 'loop:null']);
  });

  it('reads no action from an end-to-end bot text (an action event without a name)', () => {
    const text: Event = { event: 'action', timestamp: (time += 1), name: '', action_text: 'Hi!' };
    expect(of([action('action_listen'), user('greet'), text])).to.deep.equal(['>action_listen', 'greet']);
  });

  it('puts a listen before a second message in a row too', () => {
    expect(of([action('action_listen'), user('greet'), user('bye')])).to.deep.equal([
      '>action_listen',
      'greet',
      '>action_listen',
      'bye',
    ]);
  });

  it('puts an action_listen before every user message that lacks one, and only one', () => {
    expect(
      of([user('greet'), action('utter_greet'), user('bye'), action('action_listen'), user('thanks')]),
    ).to.deep.equal([
      '>action_listen',
      'greet',
      '>utter_greet',
      '>action_listen',
      'bye',
      '>action_listen',
      'thanks',
    ]);
  });

  it('starts again after a restart or a session start, forgetting even the shared slots', () => {
    for (const reset of ['restart', 'session_started'] as const) {
      const events = [
        action('action_listen'),
        user('greet'),
        slot('name', 'Ana'),
        marker(reset),
        user('bye'),
      ];
      expect(of(events, ['name'])).to.deep.equal(['>action_listen', 'bye']);
    }
  });

  it('takes a reverted user message back with the actions after it and the listen before it', () => {
    const events = [
      ...[action('action_listen'), user('greet'), action('utter_greet')],
      ...[action('action_listen'), user('mumble'), slot('city', 'Rome'), action('action_default_fallback')],
      marker('rewind'),
    ];
    expect(of(events)).to.deep.equal(['>action_listen', 'greet', '>utter_greet']);
    expect(of([marker('rewind')])).to.deep.equal([]);
  });

  it('takes a reverted action back (undo), with what it set', () => {
    const events = [
      action('action_listen'),
      user('greet'),
      action('utter_greet'),
      slot('city', 'Rome'),
      marker('undo'),
    ];
    expect(of(events)).to.deep.equal(['>action_listen', 'greet']);
  });

  it('after a routing session ended keeps only the events of shared slots', () => {
    const events = [
      ...[action('action_listen'), user('greet'), slot('city', 'Rome'), slot('name', 'Ana'), loop('form')],
      marker('routing_session_ended'),
    ];
    expect(of(events, ['name'])).to.deep.equal(['name="Ana"']);
  });

  describe('for MemoizationPolicy, turns only a rule handled are hidden', () => {
    const hidden = (events: readonly Event[]): string[] =>
      short(dialogueEventsOf(events, [], { hideRuleTurns: true }));

    it('leaves out the message and the actions of the turn, keeping the slots and loops it set', () => {
      const events = [
        ...[action('action_listen'), user('greet'), action('utter_greet')],
        ...[action('action_listen'), user('bot_challenge'), slot('city', 'Rome'), loop('form')],
        ...[
          action('utter_iamabot', true),
          action('utter_anything_else', true),
          action('action_listen', true),
        ],
        user('mood_great'),
      ];
      expect(hidden(events)).to.deep.equal([
        '>action_listen',
        'greet',
        '>utter_greet',
        '>action_listen',
        'city="Rome"',
        'loop:form',
        'mood_great',
      ]);
      expect(of(events)).to.include('bot_challenge').and.include('>utter_iamabot');
    });

    it('keeps each slot once, those set before the hidden turn as well', () => {
      const events = [
        ...[user('greet'), action('utter_greet'), slot('name', 'Ana')],
        ...[user('bot_challenge'), action('action_extract_slots'), slot('city', 'Rome')],
        ...[action('utter_iamabot', true), action('action_listen', true)],
      ];
      expect(hidden(events)).to.deep.equal([
        '>action_listen',
        'greet',
        '>utter_greet',
        'name="Ana"',
        'city="Rome"',
      ]);
      expect(
        hidden([slot('city', 'Rome'), slot('name', 'Ana'), action('utter_iamabot', true)]),
      ).to.deep.equal(['city="Rome"', 'name="Ana"']);
    });

    it('hides a rule turn at the very start of the log too', () => {
      expect(hidden([user('bot_challenge'), action('utter_iamabot', true), user('greet')])).to.deep.equal([
        '>action_listen',
        'greet',
      ]);
      expect(hidden([slot('city', 'Rome'), action('utter_iamabot', true)])).to.deep.equal(['city="Rome"']);
    });
  });
});

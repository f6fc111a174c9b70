import { expect } from 'chai';
import type { Event } from '../../../src/core/events/index.js';
import { parseEvent, parseEvents } from '../../../src/core/events/index.js';

const NOW = 1_717_000_000.25;

function accepted(raw: unknown): Event {
  const result = parseEvent(raw, NOW);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to parse, got: ${result.error}`);
  return result.event;
}

function rejected(raw: unknown): string {
  const result = parseEvent(raw, NOW);
  if (result.ok) throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
  return result.error;
}

describe('parseEvent', () => {
  describe('accepts', () => {
    it('the event dicts rasa-sdk sends, stamping timestamp: null with now', () => {
      const sdkEvents = [
        { event: 'slot', timestamp: null, name: 'balance', value: 1200 },
        { event: 'reset_slots', timestamp: null },
        { event: 'restart', timestamp: null },
        { event: 'session_started', timestamp: null },
        { event: 'session_ended', timestamp: null, metadata: { _reason: 'timeout' } },
        { event: 'rewind', timestamp: null },
        { event: 'undo', timestamp: null },
        { event: 'followup', timestamp: null, name: 'action_x' },
        { event: 'pause', timestamp: null },
        { event: 'resume', timestamp: null },
        { event: 'action', timestamp: null, name: 'utter_x', policy: null, confidence: null },
        { event: 'bot', timestamp: null, text: 'hi', data: { buttons: [] }, metadata: {} },
        { event: 'active_loop', timestamp: null, name: null },
        { event: 'loop_interrupted', timestamp: null, is_interrupted: true },
        {
          event: 'action_execution_rejected',
          timestamp: null,
          name: 'action_x',
          policy: null,
          confidence: null,
        },
        { event: 'export', timestamp: null, path: null },
        { event: 'entities', timestamp: null, entities: [{ entity: 'city', value: 'Berlin' }] },
        {
          event: 'reminder',
          timestamp: null,
          intent: 'EXTERNAL_x',
          date_time: '2024-01-01T10:00:00',
          name: null,
        },
        { event: 'cancel_reminder', timestamp: null, name: 'r1', intent: null, entities: null },
      ];
      for (const raw of sdkEvents) {
        expect(accepted(raw), raw.event).to.deep.equal({ ...raw, timestamp: NOW });
      }
    });

    it('a missing timestamp as now and keeps a given one', () => {
      expect(accepted({ event: 'pause' }).timestamp).to.equal(NOW);
      expect(accepted({ event: 'pause', timestamp: 12.5 }).timestamp).to.equal(12.5);
    });

    it('and keeps unknown extra fields', () => {
      const raw = {
        event: 'slot',
        timestamp: 1,
        name: 'x',
        value: 2,
        filled_by: 'custom',
        extra: { a: [1] },
      };
      expect(accepted(raw)).to.deep.equal(raw);
    });

    it('the flow and stack events of CALM trackers', () => {
      const events = [
        { event: 'stack', timestamp: 1, update: '[{"op": "add", "path": "/0", "value": {}}]' },
        { event: 'flow_started', timestamp: 1, flow_id: 'transfer', metadata: { step_id: 'START' } },
        { event: 'flow_interrupted', timestamp: 1, flow_id: 'transfer', step_id: 'ask' },
        { event: 'flow_resumed', timestamp: 1, flow_id: 'transfer', step_id: 'ask' },
        { event: 'flow_completed', timestamp: 1, flow_id: 'transfer', step_id: 'END' },
        { event: 'flow_cancelled', timestamp: 1, flow_id: 'transfer', step_id: 'ask' },
      ];
      for (const raw of events) expect(accepted(raw)).to.deep.equal(raw);
    });

    it('a stored user event unchanged', () => {
      const raw = {
        event: 'user',
        timestamp: 3,
        text: 'send 50 to Joe',
        parse_data: {
          text: 'send 50 to Joe',
          intent: { name: null, confidence: 0 },
          entities: [],
          commands: [{ command: 'start flow', flow: 'transfer' }],
          message_id: 'm1',
          metadata: {},
        },
        input_channel: 'rest',
        message_id: 'm1',
        metadata: {},
      };
      expect(accepted(raw)).to.deep.equal(raw);
    });

    it('fills in what a user or bot event may leave out', () => {
      const user = accepted({ event: 'user', text: 'hi', parse_data: { intent: { name: 'greet' } } });
      expect(user).to.deep.include({ text: 'hi' });
      expect(user.event === 'user' && user.parse_data).to.deep.equal({
        intent: { name: 'greet', confidence: 1 },
        entities: [],
      });
      const bare = accepted({ event: 'user' });
      expect(bare.event === 'user' && bare.parse_data).to.deep.equal({
        text: null,
        intent: { name: null, confidence: 0 },
        entities: [],
      });
      expect(accepted({ event: 'bot', data: null })).to.deep.include({ text: null, data: {} });
      expect(accepted({ event: 'slot', name: 'x' })).to.deep.include({ value: null });
      expect(accepted({ event: 'loop_interrupted' })).to.deep.include({ is_interrupted: false });
    });

    it('a user event with null parse data, or parse data without an intent, as not understood', () => {
      const nullParse = accepted({ event: 'user', text: 'hi', parse_data: null });
      expect(nullParse.event === 'user' && nullParse.parse_data).to.deep.equal({
        text: 'hi',
        intent: { name: null, confidence: 0 },
        entities: [],
      });
      const nullIntent = accepted({ event: 'user', text: 'hi', parse_data: { intent: null } });
      expect(nullIntent.event === 'user' && nullIntent.parse_data.intent).to.deep.equal({
        name: null,
        confidence: 0,
      });
      // an intent dict without a name is no prediction, so it gets no confidence either
      const unnamed = accepted({ event: 'user', text: 'hi', parse_data: { intent: {} } });
      expect(unnamed.event === 'user' && unnamed.parse_data.intent).to.deep.equal({
        name: null,
        confidence: 0,
      });
    });

    it('a null value of a nullable field as it is', () => {
      expect(accepted({ event: 'action', name: 'x', policy: null, confidence: null })).to.deep.include({
        policy: null,
        confidence: null,
      });
    });

    it('a null metadata as none', () => {
      expect(accepted({ event: 'pause', metadata: null })).to.not.have.property('metadata');
    });
  });

  describe('rejects', () => {
    it('unknown event names and dicts without a string event', () => {
      expect(rejected({ event: 'agent_started', flow_id: 'x' })).to.match(/unknown event 'agent_started'/);
      expect(rejected({ name: 'x' })).to.match(/"event"/);
      expect(rejected({ event: 3 })).to.match(/"event"/);
      expect(rejected('slot')).to.match(/object/);
      expect(rejected(null)).to.match(/object/);
      expect(rejected([{ event: 'pause' }])).to.match(/object/);
    });

    it('missing required fields', () => {
      expect(rejected({ event: 'slot', value: 1 })).to.match(/'slot': "name" is required/);
      expect(rejected({ event: 'action' })).to.match(/"name" is required/);
      expect(rejected({ event: 'stack' })).to.match(/"update" is required/);
      expect(rejected({ event: 'followup' })).to.match(/"name" is required/);
      expect(rejected({ event: 'flow_completed', flow_id: 'f' })).to.match(/"step_id" is required/);
      expect(rejected({ event: 'reminder', intent: 'x' })).to.match(/"date_time" is required/);
      expect(rejected({ event: 'entities' })).to.match(/"entities" is required/);
    });

    it('fields of the wrong type', () => {
      expect(rejected({ event: 'slot', name: 5, value: 1 })).to.match(/"name" must be a string/);
      expect(rejected({ event: 'action', name: null })).to.match(/"name" must be a string/);
      expect(rejected({ event: 'action', name: 'x', confidence: 'high' })).to.match(
        /"confidence" must be a number/,
      );
      expect(rejected({ event: 'action', name: 'x', hide_rule_turn: 'no' })).to.match(/"hide_rule_turn"/);
      expect(rejected({ event: 'stack', update: [] })).to.match(/"update" must be a string/);
      expect(rejected({ event: 'bot', text: 3 })).to.match(/"text" must be a string or null/);
      expect(rejected({ event: 'bot', data: [] })).to.match(/"data" must be an object/);
      expect(rejected({ event: 'user', parse_data: 'greet' })).to.match(/"parse_data" must be an object/);
      expect(rejected({ event: 'user', parse_data: { intent: 'greet' } })).to.match(/intent/);
      expect(rejected({ event: 'user', parse_data: { entities: [{ value: 1 }] } })).to.match(/entities\[0\]/);
      expect(rejected({ event: 'entities', entities: ['city'] })).to.match(/entities\[0\]/);
    });

    it('null for an optional field that may not be null', () => {
      expect(rejected({ event: 'action', name: 'x', hide_rule_turn: null })).to.match(
        /"hide_rule_turn" must be a boolean$/,
      );
    });

    it('numbers that are not finite, and names the kind a field needs', () => {
      expect(rejected({ event: 'action', name: 'x', confidence: Number.NaN })).to.match(
        /"confidence" must be a number or null/,
      );
      expect(rejected({ event: 'action', name: 'x', confidence: Number.POSITIVE_INFINITY })).to.match(
        /"confidence"/,
      );
      expect(rejected({ event: 'entities', entities: 'city' })).to.match(/"entities" must be an array$/);
      expect(rejected({ event: 'bot', data: 'x' })).to.match(/"data" must be an object$/);
    });

    it('a malformed intent or entity list inside the parse data', () => {
      expect(rejected({ event: 'user', parse_data: { intent: { name: 5 } } })).to.match(
        /"parse_data.intent.name" must be a string or null/,
      );
      expect(
        rejected({ event: 'user', parse_data: { intent: { name: 'greet', confidence: 'high' } } }),
      ).to.match(/"parse_data.intent.confidence" must be a number/);
      expect(rejected({ event: 'user', parse_data: { entities: {} } })).to.match(
        /"parse_data.entities" must be an array/,
      );
    });

    it('a timestamp or metadata of the wrong type', () => {
      expect(rejected({ event: 'pause', timestamp: '2024-01-01' })).to.match(/"timestamp"/);
      expect(rejected({ event: 'pause', timestamp: Number.NaN })).to.match(/"timestamp"/);
      expect(rejected({ event: 'pause', timestamp: Number.POSITIVE_INFINITY })).to.match(/"timestamp"/);
      expect(rejected({ event: 'pause', metadata: 'x' })).to.match(/"metadata"/);
    });
  });

  describe('parseEvents', () => {
    it('returns all events when every one parses', () => {
      const result = parseEvents([{ event: 'pause' }, { event: 'resume', timestamp: 2 }], NOW);
      expect(result).to.deep.equal({
        ok: true,
        events: [
          { event: 'pause', timestamp: NOW },
          { event: 'resume', timestamp: 2 },
        ],
      });
    });

    it('returns every error with its index', () => {
      const result = parseEvents([{ event: 'pause' }, { event: 'nope' }, { event: 'slot' }], NOW);
      expect(result.ok).to.equal(false);
      expect(!result.ok && result.errors.map((error) => error.index)).to.deep.equal([1, 2]);
    });

    it('rejects a value that is not a list', () => {
      expect(parseEvents({ event: 'pause' }, NOW)).to.deep.equal({
        ok: false,
        errors: [{ index: -1, error: 'events must be a list' }],
      });
    });
  });
});

import { expect } from 'chai';
import { parseDirectPayload } from '../../../src/core/domain/direct-payload.js';

function invalidReason(text: string): string {
  const payload = parseDirectPayload(text);
  if (payload?.kind !== 'invalid') throw new Error(`'${text}' was read as ${JSON.stringify(payload)}`);
  return payload.reason;
}

describe('direct payloads (/SetSlots and /intent, sent by buttons and tests)', () => {
  describe('free text', () => {
    it('is not a payload unless it starts with a slash', () => {
      expect(parseDirectPayload('hello')).to.equal(undefined);
      expect(parseDirectPayload('SetSlots(a=1)')).to.equal(undefined);
      expect(parseDirectPayload('')).to.equal(undefined);
    });

    it('is not a payload when the slash names no intent', () => {
      expect(parseDirectPayload('/')).to.equal(undefined);
      expect(parseDirectPayload('/ greet')).to.equal(undefined);
      expect(parseDirectPayload('/{"a": 1}')).to.equal(undefined);
    });
  });

  describe('/SetSlots(...)', () => {
    it('sets each slot of the list, names and values trimmed', () => {
      expect(parseDirectPayload('/SetSlots(name=John, age = 30 )')).to.deep.equal({
        kind: 'set_slots',
        slots: [
          { name: 'name', value: 'John' },
          { name: 'age', value: '30' },
        ],
      });
    });

    it('reads a payload surrounded by spaces and a space before the parenthesis', () => {
      expect(parseDirectPayload('  /SetSlots (size=large)  ')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'size', value: 'large' }],
      });
    });

    it('keeps the text after the first equals sign as the value and skips empty parts', () => {
      expect(parseDirectPayload('/SetSlots(query=a=b,, )')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'query', value: 'a=b' }],
      });
    });

    it('refuses a part without a slot name, naming the part', () => {
      expect(invalidReason('/SetSlots(abc)')).to.contain("'abc'").and.contain('slot=value');
      expect(invalidReason('/SetSlots(a=1, =2)')).to.contain("'=2'");
      expect(invalidReason('/SetSlots( = 2)')).to.contain("'= 2'");
    });

    it('refuses a payload that sets no slot', () => {
      expect(invalidReason('/SetSlots()')).to.contain("'/SetSlots()'").and.contain('sets no slot');
      expect(invalidReason('/SetSlots( , )')).to.contain('sets no slot');
    });

    it('refuses a payload without its parentheses or with text after them', () => {
      for (const text of ['/SetSlots', '/SetSlots a=1', '/SetSlots(a=1)x', '/SetSlots(a=1']) {
        expect(invalidReason(text), text).to.contain(`'${text}'`).and.contain('/SetSlots(slot=value, ...)');
      }
    });

    it('reads SetSlots case-sensitively: another spelling is an intent', () => {
      expect(parseDirectPayload('/setslots(a=1)')).to.have.property('kind', 'intent');
      expect(parseDirectPayload('/SetSlotsNow')).to.deep.include({ kind: 'intent', intent: 'SetSlotsNow' });
    });
  });

  describe('/intent', () => {
    it('names an intent with full confidence and no entities', () => {
      expect(parseDirectPayload('/greet')).to.deep.equal({
        kind: 'intent',
        intent: 'greet',
        confidence: 1,
        entities: [],
      });
      expect(parseDirectPayload('  /greet  ')).to.deep.include({ kind: 'intent', intent: 'greet' });
    });

    it('reads the entities of a JSON object, in order', () => {
      expect(parseDirectPayload('/inform{"city": "Berlin", "nights": 3}')).to.deep.equal({
        kind: 'intent',
        intent: 'inform',
        confidence: 1,
        entities: [
          { entity: 'city', value: 'Berlin' },
          { entity: 'nights', value: 3 },
        ],
      });
    });

    it('reads an entity value that mentions /SetSlots as an entity, not as a SetSlots payload', () => {
      expect(parseDirectPayload('/inform{"text": "/SetSlots(a=1)"}')).to.deep.include({
        kind: 'intent',
        intent: 'inform',
        entities: [{ entity: 'text', value: '/SetSlots(a=1)' }],
      });
    });

    it('reads a legacy confidence after @', () => {
      expect(parseDirectPayload('/affirm@0.8')).to.deep.equal({
        kind: 'intent',
        intent: 'affirm',
        confidence: 0.8,
        entities: [],
      });
      expect(parseDirectPayload('/inform@0.5{"city": "Rome"}')).to.deep.equal({
        kind: 'intent',
        intent: 'inform',
        confidence: 0.5,
        entities: [{ entity: 'city', value: 'Rome' }],
      });
    });

    it('refuses entities that are not JSON, naming the payload', () => {
      expect(invalidReason('/inform{city: Berlin}'))
        .to.contain("'/inform{city: Berlin}'")
        .and.contain('not JSON');
    });

    it('refuses a confidence that is not a number, naming the payload', () => {
      expect(invalidReason('/affirm@1.2.3')).to.contain("'/affirm@1.2.3'").and.contain('not a number');
    });
  });
});

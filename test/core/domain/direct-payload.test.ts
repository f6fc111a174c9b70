import { expect } from 'chai';
import {
  exceedsSlotLimit,
  parseDirectPayload,
  readDirectPayload,
  sanitizedUserText,
} from '../../../src/core/domain/direct-payload.js';

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

    it('refuses a pair without a slot name, naming the pair (Rasa finds no such slot and drops the payload)', () => {
      expect(invalidReason('/SetSlots(a=1, =2)')).to.contain("'=2'").and.contain('names no slot');
      expect(invalidReason('/SetSlots( = 2)')).to.contain("'= 2'");
    });

    it("refuses a payload in which Rasa's slot=value pattern finds no pair", () => {
      for (const text of ['/SetSlots()', '/SetSlots( , )', '/SetSlots(abc)', '/SetSlots']) {
        expect(invalidReason(text), text).to.contain(`'${text}'`).and.contain('sets no slot');
      }
    });

    // Rasa's pattern needs at least one character after '=': `a=` is no pair, so `/SetSlots(a=)` gives no
    // SetSlot command and Rasa hands the text, leading slash stripped, to the NLU/LLM pipeline.
    it('refuses a slot with nothing after the equals sign instead of setting it to empty text', () => {
      expect(invalidReason('/SetSlots(a=)')).to.contain("'/SetSlots(a=)'").and.contain('sets no slot');
      expect(invalidReason('/SetSlots(a=, b=)')).to.contain('sets no slot');
    });

    it('sets the pairs that have a value and skips a slot without one, as Rasa does', () => {
      expect(parseDirectPayload('/SetSlots(a=1, b=)')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'a', value: '1' }],
      });
      expect(parseDirectPayload('/SetSlots(b=, a=1)')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'a', value: '1' }],
      });
    });

    it('sets empty text when only spaces follow the equals sign (Rasa takes the spaces, then trims them)', () => {
      expect(parseDirectPayload('/SetSlots(a= )')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'a', value: '' }],
      });
    });

    it('ends a value at a comma or parenthesis and skips text that is no pair', () => {
      expect(parseDirectPayload('/SetSlots(a=f(x), note)')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'a', value: 'f' }],
      });
    });

    it('finds pairs without the closing parenthesis and after it, as Rasa scans the whole payload', () => {
      expect(parseDirectPayload('/SetSlots(a=1')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: 'a', value: '1' }],
      });
      expect(parseDirectPayload('/SetSlots(a=1) b=2')).to.deep.equal({
        kind: 'set_slots',
        slots: [
          { name: 'a', value: '1' },
          { name: 'b', value: '2' },
        ],
      });
    });

    it('reads the words before the first pair as part of its slot name when no parenthesis opens the list', () => {
      // Rasa then finds no slot '/SetSlots a' in the domain and drops the payload
      expect(parseDirectPayload('/SetSlots a=1')).to.deep.equal({
        kind: 'set_slots',
        slots: [{ name: '/SetSlots a', value: '1' }],
      });
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

describe('which payloads Rasa acts on (CommandPayloadReader and the message processor)', () => {
  const slots = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'url']);
  const pairs = (count: number) =>
    Array.from({ length: count }, (_, index) => `${[...slots][index] as string}=${index}`).join(', ');

  it('reads at most ten = signs in a /SetSlots payload, counting those inside values', () => {
    expect(readDirectPayload(`/SetSlots(${pairs(10)})`, slots)?.kind).to.equal('set_slots');
    expect(readDirectPayload(`/SetSlots(${pairs(11)})`, slots)).to.equal(undefined);
    // nine pairs, but the value of one holds two more '=' (eleven in all): Rasa reads none of it
    expect(readDirectPayload(`/SetSlots(${pairs(8)}, url=a?x=1&y=2)`, slots)).to.equal(undefined);
    expect(readDirectPayload(`/SetSlots(${pairs(8)}, url=a?x=1)`, slots)?.kind).to.equal('set_slots');
    expect(exceedsSlotLimit('==========')).to.equal(false);
    expect(exceedsSlotLimit('===========')).to.equal(true);
  });

  it('reads no /SetSlots payload that names a slot the domain lacks, nor one it cannot parse', () => {
    expect(readDirectPayload('/SetSlots(a=1, zz=2)', slots)).to.equal(undefined);
    expect(readDirectPayload('/SetSlots(a=)', slots)).to.equal(undefined);
    expect(readDirectPayload('/greet{oops}', slots)).to.equal(undefined);
    expect(readDirectPayload('hello', slots)).to.equal(undefined);
  });

  it('reads an intent payload whatever the domain', () => {
    expect(readDirectPayload('/greet', slots)).to.deep.include({ kind: 'intent', intent: 'greet' });
  });

  describe("the text understood and stored (Rasa's _sanitize_message)", () => {
    it('strips the leading slashes and white space of slash text that is no payload, and the end', () => {
      expect(sanitizedUserText('/SetSlots(a=)', slots)).to.equal('SetSlots(a=)');
      expect(sanitizedUserText(' // / hello there  ', slots)).to.equal('hello there');
      expect(sanitizedUserText('/SetSlots(zz=1)', slots)).to.equal('SetSlots(zz=1)');
      expect(sanitizedUserText(`/SetSlots(${pairs(11)})`, slots)).to.equal(`SetSlots(${pairs(11)})`);
      expect(sanitizedUserText('/', slots)).to.equal('');
      // Python's white space: U+0085 and U+001C count, U+FEFF does not
      expect(sanitizedUserText('\x85/\x1chi\x1f', slots)).to.equal('hi');
    });

    it('keeps a payload Rasa reads, and any text that does not start with a slash, as sent', () => {
      for (const text of ['/SetSlots(a=1)', '/greet', ' /greet ', 'hello / there', '  hi  ', '\ufeff/hi'])
        expect(sanitizedUserText(text, slots), JSON.stringify(text)).to.equal(text);
    });
  });
});

import { expect } from 'chai';
import { coerceSlotValue } from '../../../src/core/domain/slot-values.js';
import type { SlotType } from '../../../src/core/domain/types.js';

function coerce(type: SlotType, value: unknown, values: readonly string[] = []) {
  return coerceSlotValue({ type, values }, value);
}

describe('slot value coercion (Rasa: applied to SetSlot values and by action_run_slot_rejections)', () => {
  it('reads null and undefined as an unset slot of any type', () => {
    for (const type of ['text', 'bool', 'float', 'categorical', 'any', 'list'] as const) {
      expect(coerce(type, null, ['a']), type).to.deep.equal({ ok: true, value: null });
      expect(coerce(type, undefined, ['a']), type).to.deep.equal({ ok: true, value: null });
    }
  });

  it('stores anything as it is in text and any slots', () => {
    const object = { nested: [1] };
    for (const type of ['text', 'any'] as const) {
      expect(coerce(type, 'Berlin')).to.deep.equal({ ok: true, value: 'Berlin' });
      expect(coerce(type, 42)).to.deep.equal({ ok: true, value: 42 });
      expect(coerce(type, '')).to.deep.equal({ ok: true, value: '' });
      expect(coerce(type, object).value).to.equal(object);
    }
  });

  it('wraps a single value of a list slot in a list and keeps a list as it is', () => {
    const list = ['a', 'b'];
    expect(coerce('list', 'a')).to.deep.equal({ ok: true, value: ['a'] });
    expect(coerce('list', list).value).to.equal(list);
  });

  describe('bool slots', () => {
    it('keeps true and false', () => {
      expect(coerce('bool', true)).to.deep.equal({ ok: true, value: true });
      expect(coerce('bool', false)).to.deep.equal({ ok: true, value: false });
    });

    it('reads a number as true only when it equals 1', () => {
      expect(coerce('bool', 1)).to.deep.equal({ ok: true, value: true });
      expect(coerce('bool', 1.0)).to.deep.equal({ ok: true, value: true });
      expect(coerce('bool', 0)).to.deep.equal({ ok: true, value: false });
      expect(coerce('bool', 2)).to.deep.equal({ ok: true, value: false });
    });

    // Rasa's bool_from_any sends text that str.isnumeric() accepts to float() and compares it with 1
    it('reads a string of digits as true only when it equals 1', () => {
      for (const text of ['1', '01', '0001'])
        expect(coerce('bool', text), text).to.deep.equal({ ok: true, value: true });
      for (const text of ['0', '00', '7', '10', '11'])
        expect(coerce('bool', text), text).to.deep.equal({ ok: true, value: false });
    });

    it('refuses a number written with a point, sign, exponent, prefix or spaces, as isnumeric() does', () => {
      for (const value of ['1.0', '0.0', '-1', '+1', '1e0', '0x1', ' 1 ', '1 ', '1_0', 'Infinity']) {
        expect(coerce('bool', value), JSON.stringify(value)).to.deep.equal({ ok: false, value });
      }
    });

    it('reads the decimal digits of other scripts, as Python float() does', () => {
      expect(coerce('bool', '\u0661')).to.deep.equal({ ok: true, value: true }); // Arabic-Indic one
      expect(coerce('bool', '\uff11')).to.deep.equal({ ok: true, value: true }); // fullwidth one
      expect(coerce('bool', '\u{1d7d9}')).to.deep.equal({ ok: true, value: true }); // mathematical double-struck one
      expect(coerce('bool', '\u0660\u0661')).to.deep.equal({ ok: true, value: true });
      expect(coerce('bool', '\u0661\u0660')).to.deep.equal({ ok: true, value: false });
    });

    it('refuses numeric characters that are not decimal digits (float() fails on them)', () => {
      for (const value of ['\u00bd', '\u00b2', '\u4e00', '\u216b', '1\u00bd']) {
        expect(coerce('bool', value), JSON.stringify(value)).to.deep.equal({ ok: false, value });
      }
    });

    it('reads true/yes and false/no, trimmed and in any case', () => {
      for (const text of ['true', 'True', ' true ', ' YES ', 'yes', '\ttrue\n'])
        expect(coerce('bool', text), text).to.deep.equal({ ok: true, value: true });
      for (const text of ['false', 'FALSE', ' No ', 'no'])
        expect(coerce('bool', text), text).to.deep.equal({ ok: true, value: false });
    });

    it("trims the white space of Python's str.strip(), which differs from JavaScript's trim()", () => {
      for (const text of ['\x1ctrue\x1f', '\x85yes', 'true\u3000', '\u2028true\u2029'])
        expect(coerce('bool', text), JSON.stringify(text)).to.deep.equal({ ok: true, value: true });
      expect(coerce('bool', '\ufefftrue')).to.deep.equal({ ok: false, value: '\ufefftrue' });
    });

    it('refuses other text, the empty string and non-scalar values, keeping the value unchanged', () => {
      for (const value of ['maybe', 'yess', '', '   ', 'truefalse']) {
        expect(coerce('bool', value), JSON.stringify(value)).to.deep.equal({ ok: false, value });
      }
      const object = { answer: true };
      const list = [true];
      expect(coerce('bool', object)).to.deep.equal({ ok: false, value: object });
      expect(coerce('bool', object).value).to.equal(object);
      expect(coerce('bool', list)).to.deep.equal({ ok: false, value: list });
    });
  });

  describe('float slots', () => {
    it('keeps numbers', () => {
      expect(coerce('float', 2.5)).to.deep.equal({ ok: true, value: 2.5 });
      expect(coerce('float', 0)).to.deep.equal({ ok: true, value: 0 });
    });

    it('reads booleans as 1 and 0, as Python float() does', () => {
      expect(coerce('float', true)).to.deep.equal({ ok: true, value: 1 });
      expect(coerce('float', false)).to.deep.equal({ ok: true, value: 0 });
    });

    it('reads numeric text, trimmed', () => {
      expect(coerce('float', '3')).to.deep.equal({ ok: true, value: 3 });
      expect(coerce('float', ' 2.75 ')).to.deep.equal({ ok: true, value: 2.75 });
      expect(coerce('float', '-1e3')).to.deep.equal({ ok: true, value: -1000 });
    });

    // Rasa's FloatSlot.coerce_value is Python's float()
    it("reads what Python's float() reads: exponents, underscores, a bare point, signs, any script's digits", () => {
      const read: [string, number][] = [
        ['1e3', 1000],
        ['1E-2', 0.01],
        ['1_000', 1000],
        ['1_000.5_5', 1000.55],
        ['1e1_0', 1e10],
        ['.5', 0.5],
        ['5.', 5],
        ['1.e2', 100],
        ['+7', 7],
        ['-0.25', -0.25],
        ['007', 7],
        ['\u0661\u0662', 12], // Arabic-Indic digits
        ['\uff13.\uff15', 3.5], // fullwidth digits
        ['\x854\xa0', 4], // Python's white space, which JavaScript's trim() keeps
        ['\u30004\u2029', 4],
      ];
      for (const [text, value] of read)
        expect(coerce('float', text), JSON.stringify(text)).to.deep.equal({ ok: true, value });
    });

    it("refuses what Python's float() refuses, though JavaScript's Number() reads it", () => {
      for (const value of [
        '0x10',
        '0b1',
        '0o7',
        '',
        ' \n ',
        '1__000',
        '_1',
        '1_',
        '1_.5',
        '1._5',
        '1e',
        '.',
        'e3',
      ]) {
        expect(coerce('float', value), JSON.stringify(value)).to.deep.equal({ ok: false, value });
      }
      // U+FEFF is no Python white space; float() keeps U+001C-U+001F, which str.strip() would remove
      for (const value of ['\ufeff1', '\x1c1', '1\x1f'])
        expect(coerce('float', value), JSON.stringify(value)).to.deep.equal({ ok: false, value });
    });

    // float() reads these, but no JSON store or channel can carry them (docs/decisions.md)
    it('keeps infinities and NaN unconverted, so the slot is rejected rather than stored as null', () => {
      for (const value of ['inf', '-inf', 'Infinity', 'nan', 'NaN', '1e999', '-1e999']) {
        expect(coerce('float', value), value).to.deep.equal({ ok: false, value });
      }
      expect(coerce('float', Number.POSITIVE_INFINITY).ok).to.equal(false);
      expect(coerce('float', Number.NaN).ok).to.equal(false);
    });

    it('refuses other text and non-scalar values, keeping the value unchanged', () => {
      for (const value of ['abc', '12 apples', '1,5', '1.2.3']) {
        expect(coerce('float', value), JSON.stringify(value)).to.deep.equal({ ok: false, value });
      }
      const object = { amount: 3 };
      expect(coerce('float', object)).to.deep.equal({ ok: false, value: object });
      expect(coerce('float', [3])).to.deep.equal({ ok: false, value: [3] });
    });
  });

  describe('categorical slots', () => {
    const sizes = ['small', 'Medium', 'LARGE'];

    it('keeps a declared value', () => {
      expect(coerce('categorical', 'small', sizes)).to.deep.equal({ ok: true, value: 'small' });
      expect(coerce('categorical', 'Medium', sizes)).to.deep.equal({ ok: true, value: 'Medium' });
    });

    it('matches a value in another case and stores the casing the domain declares', () => {
      expect(coerce('categorical', 'SMALL', sizes)).to.deep.equal({ ok: true, value: 'small' });
      expect(coerce('categorical', 'medium', sizes)).to.deep.equal({ ok: true, value: 'Medium' });
      expect(coerce('categorical', 'Large', sizes)).to.deep.equal({ ok: true, value: 'LARGE' });
    });

    it('prefers the exact value when two declared values differ only in case', () => {
      expect(coerce('categorical', 'Yes', ['yes', 'Yes'])).to.deep.equal({ ok: true, value: 'Yes' });
    });

    it('refuses an undeclared value, keeping the value unchanged', () => {
      expect(coerce('categorical', 'huge', sizes)).to.deep.equal({ ok: false, value: 'huge' });
      expect(coerce('categorical', 7, sizes)).to.deep.equal({ ok: false, value: 7 });
      expect(coerce('categorical', ' small', sizes)).to.deep.equal({ ok: false, value: ' small' });
    });

    it('compares a number or a boolean as Python prints it, storing the declared string', () => {
      expect(coerce('categorical', 2, ['1', '2'])).to.deep.equal({ ok: true, value: '2' });
      expect(coerce('categorical', true, ['True', 'False'])).to.deep.equal({ ok: true, value: 'True' });
      expect(coerce('categorical', false, ['True', 'False'])).to.deep.equal({ ok: true, value: 'False' });
      expect(coerce('categorical', false, ['true', 'false'])).to.deep.equal({ ok: true, value: 'false' });
      expect(coerce('categorical', true, ['no', 'maybe'])).to.deep.equal({ ok: false, value: true });
      // str(True) in Python: an exact match before any other casing
      expect(coerce('categorical', true, ['true', 'True'])).to.deep.equal({ ok: true, value: 'True' });
      expect(coerce('categorical', false, ['false', 'False'])).to.deep.equal({ ok: true, value: 'False' });
    });
  });
});

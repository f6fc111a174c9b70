import { expect } from 'chai';
import { parseCondition, tryEvaluateCondition } from '../../../../src/core/flows/conditions/index.js';

// Evaluation cases of pypred's semantics that the table tests do not reach: walking a dotted name into
// values that are not dicts, what `contains` evaluates, set literals, Empty, and Python's TypeError texts.

type Values = Readonly<Record<string, unknown>>;

function attempt(text: string, slots: Values = {}) {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.message}`);
  return tryEvaluateCondition(parsed.ast, { slots, context: {} });
}

const holds = (text: string, slots: Values = {}) => attempt(text, slots);
const raises = (text: string, slots: Values = {}): string => {
  const result = attempt(text, slots);
  if (result.ok) throw new Error(`expected ${text} to raise, got ${String(result.value)}`);
  return result.error;
};

describe('condition evaluation (pypred semantics, Python values)', () => {
  describe('a dotted name walks into the value (pypred tests `part in value` before indexing)', () => {
    it('into a string: a part the string contains raises, any other part is undefined', () => {
      expect(raises('slots.s.b is undefined', { s: 'abc' })).to.equal('string indices must be integers');
      expect(holds('slots.s.z is undefined', { s: 'abc' })).to.deep.equal({ ok: true, value: true });
    });

    it('into a list: a part the list contains raises, any other part is undefined', () => {
      expect(raises('slots.l.a is undefined', { l: ['a'] })).to.equal(
        "'list' object cannot be indexed by str",
      );
      expect(holds('slots.l.b is undefined', { l: ['a'] })).to.deep.equal({ ok: true, value: true });
    });

    it('into None, a number or a bool: raises as `in` does on them', () => {
      expect(raises('slots.n.x is undefined', { n: null })).to.equal(
        "argument of type 'NoneType' is not iterable",
      );
      expect(raises('slots.n.x is undefined', { n: 2 })).to.equal("argument of type 'float' is not iterable");
      expect(raises('slots.n.x is undefined', { n: true })).to.equal(
        "argument of type 'bool' is not iterable",
      );
    });
  });

  it('contains is false for a left side without members, without evaluating the right side', () => {
    // the right side would raise (walking into a number), but it is never looked at
    expect(holds('slots.n contains slots.m.x', { n: 5, m: 1 })).to.deep.equal({ ok: true, value: false });
    expect(holds('slots.n contains slots.m.x', { n: null, m: 1 })).to.deep.equal({ ok: true, value: false });
  });

  it('a set literal holds names and literals; any other item raises', () => {
    expect(holds("{(slots.a) 'b'} contains 'x'", { a: 'x' })).to.deep.equal({ ok: true, value: true });
    expect(raises('{(slots.a = 1)} contains true', { a: 1 })).to.equal(
      'a set literal cannot hold a compare expression',
    );
    expect(raises('{undefined} contains 1')).to.equal('a set literal cannot hold a undefined expression');
  });

  it('compares sets by their members and dicts by every key', () => {
    expect(holds('{1 2} = {1}')).to.deep.equal({ ok: true, value: false });
    expect(holds('{1} = {1 2}')).to.deep.equal({ ok: true, value: false });
    expect(holds('{1 2} = {1 3}')).to.deep.equal({ ok: true, value: false });
    expect(holds('{2 1} = {1 2}')).to.deep.equal({ ok: true, value: true });
    expect(holds('slots.a = slots.b', { a: { x: 1, y: 2 }, b: { x: 1, y: 3 } })).to.deep.equal({
      ok: true,
      value: false,
    });
  });

  it('empty equals empty and undefined', () => {
    expect(holds('empty = empty')).to.deep.equal({ ok: true, value: true });
    expect(holds('empty = undefined')).to.deep.equal({ ok: true, value: true });
  });

  it('orders with <= as Python does', () => {
    expect(holds('slots.a <= 1', { a: 2 })).to.deep.equal({ ok: true, value: false });
    expect(holds('slots.a <= 1', { a: 1 })).to.deep.equal({ ok: true, value: true });
  });

  it("raises Python's TypeError for operands it cannot order or look for", () => {
    expect(raises('slots.a < 1', { a: 'x' })).to.equal(
      "'<' not supported between instances of 'str' and 'float'",
    );
    expect(raises("1 >= 'x'")).to.equal("'>=' not supported between instances of 'float' and 'str'");
    expect(raises('{1} < 1')).to.equal("'<' not supported between instances of 'frozenset' and 'float'");
    expect(raises('1 > {1}')).to.equal("'>' not supported between instances of 'float' and 'frozenset'");
    expect(raises("'abc' contains 1")).to.equal("'in <string>' requires string as left operand, not float");
    expect(raises('{1} contains slots.l', { l: [1] })).to.equal("unhashable type: 'list'");
  });

  describe('a string contains a string by code points (Python), never half of a surrogate pair', () => {
    const cases: readonly (readonly [string, string, string, boolean])[] = [
      ['a lone low surrogate after a letter', 'a\udc00', '\udc00', true],
      ['a lone low surrogate after another lone low one', '\udc00\udc01', '\udc01', true],
      ['a character after a lone high surrogate', '\ud800\ue000', '\ue000', true],
      ['the high half of U+1F400', '\ud83d\udc00', '\ud83d', false],
      ['the high half of U+10000', '\ud800\udc00', '\ud800', false],
      ['the high half of U+10FC00', '\udbff\udc00', '\udbff', false],
      ['the high half of U+10FFFF', '\udbff\udfff', '\udbff', false],
      ['the low half of U+10FFFF', '\udbff\udfff', '\udfff', false],
      ['a whole pair', 'x\ud83d\ude00y', '\ud83d\ude00', true],
    ];
    for (const [what, text, part, expected] of cases) {
      it(`${what}: ${String(expected)}`, () => {
        expect(holds('slots.s contains slots.p', { s: text, p: part })).to.deep.equal({
          ok: true,
          value: expected,
        });
      });
    }
  });
});

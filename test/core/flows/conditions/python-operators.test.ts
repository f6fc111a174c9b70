import { expect } from 'chai';
import { parseCondition, tryEvaluateCondition } from '../../../../src/core/flows/conditions/index.js';

// The comparisons and `contains` of conditions against Python's semantics, row by row. Every
// expected value was produced by evaluating the same condition with pypred's own AST nodes
// (armon/pypred, pypred/ast.py: CompareOperator, ContainsOperator, LiteralSet, Undefined, Empty) on
// CPython 3.11; 'raises' means Python raised (a TypeError), which makes the condition false.

type Expected = boolean | 'raises';

const TABLE: readonly (readonly [string, Readonly<Record<string, unknown>>, Expected])[] = [
  // set ordering: `<` a PROPER subset, `<=` a subset, `>`/`>=` the supersets; incomparable sets are neither; a set against anything else raises
  ['{1 2} < {1 2 3}', {}, true],
  ['{1 2} < {1 2}', {}, false],
  ['{1 2} <= {1 2}', {}, true],
  ['{1 2} <= {1 3}', {}, false],
  ['{1 2} < {1 3}', {}, false],
  ['{1 3} > {1 2}', {}, false],
  ['{1 2 3} > {1 2}', {}, true],
  ['{1 2} > {1 2}', {}, false],
  ['{1 2} >= {1 2}', {}, true],
  ['{1 2 3} >= {2}', {}, true],
  ['{} < {1}', {}, true],
  ['{1 true} <= {1}', {}, true],
  ['{1 true} < {1}', {}, false],
  ["{'a' 'b'} > {'a'}", {}, true],
  ["{slots.a slots.b} < {'x' 'y' 'z'}", { a: 'x', b: 'y' }, true],
  ['{1} < slots.l', { l: [1, 2] }, 'raises'],
  ["{'a'} < 'ab'", {}, 'raises'],
  ['{1} < slots.missing', {}, false],
  // list `in`: Python equality (1 == 1.0 == True, 0 == False, 'a' != 'A', '1' != 1), nested lists and dicts compared elementwise; Undefined equals no item
  ['slots.l contains 1', { l: [true] }, true],
  ['slots.l contains true', { l: [1] }, true],
  ['slots.l contains 1.0', { l: [1] }, true],
  ['slots.l contains false', { l: [0] }, true],
  ["slots.l contains 'A'", { l: ['a'] }, false],
  ["slots.l contains 'a'", { l: ['a'] }, true],
  ["slots.l contains '1'", { l: [1] }, false],
  ['slots.l contains 1', { l: ['1'] }, false],
  ['slots.l contains null', { l: [null] }, true],
  ['slots.l contains null', { l: [0, '', false] }, false],
  ['slots.l contains slots.p', { l: [[1, 2]], p: [1.0, 2] }, true],
  ['slots.l contains slots.p', { l: [[1, 2]], p: [2, 1] }, false],
  ['slots.l contains slots.p', { l: [[1, [true]]], p: [1, [1]] }, true],
  ['slots.l contains slots.p', { l: [[1, [true]]], p: [1, [2]] }, false],
  ['slots.l contains slots.p', { l: [[1, 2]], p: [1, 2, 3] }, false],
  ['slots.l contains slots.d', { l: [{ k: 1 }], d: { k: true } }, true],
  ['slots.l contains slots.d', { l: [{ k: 1 }], d: { k: 1, j: 2 } }, false],
  ['slots.l contains slots.missing', { l: [null, []] }, false],
  ['slots.l contains slots.missing', { l: [] }, false],
  // str `in`: a substring test on code points; a non-string raises (TypeError)
  ["slots.s contains 'bc'", { s: 'abc' }, true],
  ["slots.s contains ''", { s: 'abc' }, true],
  ["slots.s contains 'B'", { s: 'abc' }, false],
  ['slots.s contains 1', { s: 'a1' }, 'raises'],
  ['slots.s contains true', { s: 'True' }, 'raises'],
  ['slots.s contains null', { s: 'None' }, 'raises'],
  ['slots.s contains slots.missing', { s: 'abc' }, 'raises'],
  ['slots.s contains slots.half', { s: '\ud83d\ude00', half: '\ud83d' }, false],
  ['slots.s contains slots.half', { s: '\ud83d\ude00', half: '\ude00' }, false],
  ['slots.s contains slots.half', { s: 'a\ud83db', half: '\ud83d' }, true],
  ['slots.s contains slots.e', { s: 'x\ud83d\ude00y', e: '\ud83d\ude00' }, true],
  // dict `in`: a key test; JSON keys are strings, so no number, bool or null matches; an unhashable element raises
  ["slots.d contains 'k'", { d: { k: 1 } }, true],
  ["slots.d contains 'K'", { d: { k: 1 } }, false],
  ['slots.d contains 1', { d: { '1': 1 } }, false],
  ['slots.d contains null', { d: { null: 1 } }, false],
  ['slots.d contains slots.l', { d: { k: 1 }, l: ['k'] }, 'raises'],
  ['slots.d contains slots.missing', { d: { k: 1 } }, false],
  // set literal `in`: hash + equality, so True finds 1; lists and dicts are unhashable and raise
  ['{1 2} contains slots.v', { v: 1 }, true],
  ['{1 2} contains slots.v', { v: true }, true],
  ['{1 2} contains slots.v', { v: '1' }, false],
  ['{1 2} contains slots.v', { v: [1] }, 'raises'],
  ['{1 2} contains slots.v', { v: { a: 1 } }, 'raises'],
  ['{null} contains slots.v', { v: null }, true],
  ['{null} contains slots.missing', {}, false],
  ['{slots.missing} contains slots.other', {}, true],
  ["{'a' 'b'} contains 'A'", {}, false],
  // `in` on something without __contains__ (a number, a bool, None) is false; Undefined contains nothing
  ["slots.missing contains 'a'", {}, false],
  ['slots.missing contains slots.l', { l: [1] }, false],
  ['slots.missing contains slots.d', { d: { k: 1 } }, false],
  ['slots.n contains 1', { n: 1 }, false],
  ['slots.b contains true', { b: true }, false],
  ['slots.x contains null', { x: null }, false],
  // ordering numbers and bools (bool is an int)
  ['1 < true', {}, false],
  ['true <= 1', {}, true],
  ['false < 0.5', {}, true],
  ['slots.n > false', { n: 0.5 }, true],
  // ordering strings: by code point (U+FFFF sorts before U+1F600, unlike UTF-16 units)
  ["'B' < 'a'", {}, true],
  ["'ab' < 'abc'", {}, true],
  ["'' < 'a'", {}, true],
  ["'abc' >= 'abd'", {}, false],
  ['slots.a > slots.b', { a: '\u00e9', b: 'z' }, true],
  ['slots.a < slots.b', { a: '\uffff', b: '\ud83d\ude00' }, true],
  // ordering lists: at the first unequal item with the same operator, else by length; equal unorderable items are fine
  ['slots.a < slots.b', { a: [1, 2], b: [1, 3] }, true],
  ['slots.a < slots.b', { a: [1, 2], b: [1, 2] }, false],
  ['slots.a <= slots.b', { a: [1, 2], b: [1, 2] }, true],
  ['slots.a < slots.b', { a: [1, 2], b: [1, 2, 0] }, true],
  ['slots.a > slots.b', { a: [2], b: [1, 9] }, true],
  ['slots.a < slots.b', { a: [], b: [null] }, true],
  ['slots.a < slots.b', { a: [1, 'a'], b: [1, 2] }, 'raises'],
  ['slots.a < slots.b', { a: [1, 'a'], b: [2, 'b'] }, true],
  ['slots.a < slots.b', { a: [null], b: [null] }, false],
  ['slots.a <= slots.b', { a: [null], b: [null] }, true],
  ['slots.a < slots.b', { a: [null, 1], b: [null, 2] }, true],
  ['slots.a < slots.b', { a: [null], b: [1] }, 'raises'],
  ['slots.a < slots.b', { a: [true], b: [2] }, true],
  ['slots.a <= slots.b', { a: [1], b: [true] }, true],
  ['slots.a < slots.b', { a: [[1]], b: [[2]] }, true],
  ['slots.a < slots.b', { a: [{ k: 1 }], b: [{ k: 2 }] }, 'raises'],
  ['slots.a <= slots.b', { a: [{ k: 1 }], b: [{ k: 1 }] }, true],
  ['slots.a < slots.b', { a: ['b'], b: ['a', 'z'] }, false],
  ['slots.a < slots.b', { a: { k: 1 }, b: { k: 2 } }, 'raises'],
  ['slots.a < slots.b', { a: [1], b: 'a' }, 'raises'],
  ['slots.a < slots.b', { a: [1], b: { k: 1 } }, 'raises'],
  // ordering values Python cannot order raises
  ['slots.a < 1', { a: 'a' }, 'raises'],
  ['slots.a < 1', { a: null }, 'raises'],
  ['slots.a < slots.b', { a: null, b: null }, 'raises'],
  ["true < 'a'", {}, 'raises'],
  // ordering with Undefined or Empty on either side is false, without an error
  ['slots.missing < 1', {}, false],
  ['slots.missing >= slots.other', {}, false],
  ['empty < 1', {}, false],
  ['slots.a > empty', { a: 'x' }, false],
  // equality: `=` and `is` are Python ==, `!=` and `is not` Python != (Undefined has its own __ne__):
  // bools are ints, lists and dicts compare by value, a set never equals a list, Empty equals length zero
  ['1 = 1.0', {}, true],
  ['slots.b = 1', { b: true }, true],
  ['slots.b = 0', { b: false }, true],
  ['slots.b != 1', { b: true }, false],
  ["'1' = 1", {}, false],
  ["'a' = 'A'", {}, false],
  ['slots.a = slots.b', { a: [1, [true]], b: [1.0, [1]] }, true],
  ['slots.a = slots.b', { a: [1, 2], b: [2, 1] }, false],
  ['slots.a = slots.b', { a: { k: 1, j: [true] }, b: { j: [1], k: 1.0 } }, true],
  ['slots.a = slots.b', { a: { k: 1 }, b: { k: 1, j: 2 } }, false],
  ['slots.a = slots.b', { a: { k: null }, b: {} }, false],
  ['{1 2} = {2 1}', {}, true],
  ['{1 true} = {1}', {}, true],
  ['{1 2} = slots.l', { l: [1, 2] }, false],
  ['slots.l = {1 2}', { l: [1, 2] }, false],
  ['{} = empty', {}, true],
  ['{} != empty', {}, false],
  ['slots.l = empty', { l: [] }, true],
  ['slots.d = empty', { d: {} }, true],
  ['slots.s = empty', { s: '' }, true],
  ['slots.n = empty', { n: 0 }, false],
  ['slots.b = empty', { b: false }, false],
  ['slots.x = empty', { x: null }, false],
  ['slots.missing = empty', {}, true],
  ['empty = slots.missing', {}, true],
  ['slots.missing = slots.other', {}, true],
  ['slots.missing != slots.other', {}, false],
  ['slots.missing != empty', {}, true],
  ['empty != slots.missing', {}, false],
  ['slots.missing = null', {}, false],
  ['null = slots.missing', {}, false],
  ['slots.missing != null', {}, true],
  ['null != slots.missing', {}, true],
  ['slots.x = null', { x: null }, true],
  ['slots.x != null', { x: 0 }, true],
  ['slots.s != empty', { s: ' ' }, true],
  ["slots.s is 'a'", { s: 'a' }, true],
  ["slots.s is not 'a'", { s: 'b' }, true],
];

function attempt(condition: string, slots: Readonly<Record<string, unknown>>) {
  const parsed = parseCondition(condition);
  if (!parsed.ok) throw new Error(`${condition}: ${parsed.error.message}`);
  return tryEvaluateCondition(parsed.ast, { slots, context: {} });
}

describe('conditions: ordering, equality and contains follow Python, operator by operator', () => {
  for (const [condition, slots, expected] of TABLE) {
    const slotsText = Object.keys(slots).length > 0 ? ` with ${JSON.stringify(slots)}` : '';
    it(`${condition}${slotsText} → ${String(expected)}`, () => {
      const result = attempt(condition, slots);
      if (expected === 'raises') expect(result.ok, JSON.stringify(result)).to.equal(false);
      else expect(result).to.deep.equal({ ok: true, value: expected });
    });
  }
});

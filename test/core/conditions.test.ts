import { expect } from 'chai';
import {
  conditionComparisons,
  conditionIdentifiers,
  EMPTY,
  evaluateCondition,
  parseCondition,
  tryEvaluateCondition,
  UNDEFINED,
  type ConditionAst,
  type ConditionSyntaxError,
} from '../../src/core/flows/conditions/index.js';

type Values = Record<string, unknown>;

function parse(text: string): ConditionAst {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.message} at ${parsed.error.offset}`);
  return parsed.ast;
}

function evaluate(text: string, slots: Values = {}, context: Values = {}): boolean {
  return evaluateCondition(parse(text), { slots, context });
}

function attempt(text: string, slots: Values = {}, context: Values = {}) {
  return tryEvaluateCondition(parse(text), { slots, context });
}

function syntaxError(text: string): ConditionSyntaxError {
  const parsed = parseCondition(text);
  if (parsed.ok) throw new Error(`expected a syntax error for ${text}`);
  return parsed.error;
}

describe('conditions (pypred semantics)', () => {
  describe('precedence', () => {
    it('groups `a or b and c` as `a or (b and c)` (same precedence, right-associative)', () => {
      expect(evaluate('slots.a or slots.b and slots.c', { a: true, b: false, c: false })).to.equal(true);
    });

    it('groups `a and b or c` as `a and (b or c)`', () => {
      expect(evaluate('slots.a and slots.b or slots.c', { a: false, b: false, c: true })).to.equal(false);
    });

    it('builds a right-leaning tree for a chain of and/or', () => {
      const ast = parse('a and b or c');
      expect(ast.kind).to.equal('logical');
      if (ast.kind !== 'logical') return;
      expect(ast.operator).to.equal('and');
      expect(ast.left).to.deep.equal({ kind: 'identifier', name: 'a', offset: 0 });
      expect(ast.right.kind).to.equal('logical');
    });

    it('binds not tighter than and: `not a and b` is `(not a) and b`', () => {
      expect(evaluate('not slots.a and slots.b', { a: false, b: false })).to.equal(false);
    });

    it('binds not looser than a comparison: `not a = 1` negates the comparison', () => {
      expect(evaluate('not slots.a = 1', { a: 1 })).to.equal(false);
      expect(evaluate('not slots.a = 1', { a: 2 })).to.equal(true);
    });

    it('applies not inside a chain: `a and not b or c` is `a and ((not b) or c)`', () => {
      expect(evaluate('slots.a and not slots.b or slots.c', { a: true, b: true, c: true })).to.equal(true);
      expect(evaluate('slots.a and not slots.b or slots.c', { a: false, b: false, c: true })).to.equal(false);
    });

    it('lets parentheses override the grouping', () => {
      expect(evaluate('(slots.a or slots.b) and slots.c', { a: true, b: false, c: false })).to.equal(false);
    });

    it('allows nested parentheses and double negation', () => {
      expect(evaluate('(((not not slots.a)))', { a: 'yes' })).to.equal(true);
    });
  });

  describe('keywords', () => {
    it('reads AND, OR and NOT case-insensitively', () => {
      expect(evaluate('slots.a AND NOT slots.b Or slots.c', { a: true, b: false, c: false })).to.equal(true);
    });

    it('reads True, FALSE and NULL as constants', () => {
      expect(evaluate('slots.flag is True', { flag: true })).to.equal(true);
      expect(evaluate('slots.flag = FALSE', { flag: false })).to.equal(true);
      expect(evaluate('slots.x IS NOT NULL', { x: null })).to.equal(false);
    });

    it('parses the texts "True" and "False" of YAML boolean guards as boolean literals', () => {
      expect(parse('False')).to.deep.equal({ kind: 'constant', value: false, offset: 0 });
      expect(evaluate('False')).to.equal(false);
      expect(evaluate('True')).to.equal(true);
    });

    it('reads Contains and MATCHES case-insensitively', () => {
      expect(evaluate('slots.s Contains "b" and slots.s MATCHES "c$"', { s: 'abc' })).to.equal(true);
    });

    it('treats a quoted keyword as a plain string', () => {
      expect(evaluate("slots.x = 'and'", { x: 'and' })).to.equal(true);
      expect(parse('"null"')).to.deep.equal({ kind: 'string', value: 'null', offset: 0 });
    });
  });

  describe('identifiers', () => {
    it('resolves an unquoted bare word as a name, not as a string', () => {
      expect(evaluate('slots.x = foo', { x: 'foo' })).to.equal(false);
      expect(evaluate('foo is undefined')).to.equal(true);
    });

    it('resolves a dotted path into the slots', () => {
      expect(evaluate('slots.city = "Berlin"', { city: 'Berlin' })).to.equal(true);
    });

    it('resolves a slot that is present with null to null, not to undefined', () => {
      expect(evaluate('slots.x is null', { x: null })).to.equal(true);
      expect(evaluate('slots.x is undefined', { x: null })).to.equal(false);
    });

    it('resolves a missing slot to Undefined, which is not null', () => {
      expect(evaluate('slots.missing is undefined')).to.equal(true);
      expect(evaluate('slots.missing is null')).to.equal(false);
    });

    it('walks nested dicts in the context', () => {
      expect(evaluate('context.info.city = "Paris"', {}, { info: { city: 'Paris' } })).to.equal(true);
    });

    it('resolves the bare namespace to the whole dict', () => {
      expect(evaluate("slots contains 'x'", { x: 1 })).to.equal(true);
    });

    it('raises when a path walks into null, which makes the condition false', () => {
      expect(attempt('slots.address.city is null', { address: null }).ok).to.equal(false);
      expect(evaluate('slots.address.city is null', { address: null })).to.equal(false);
    });

    it('raises when a path part is a substring of a string value, and is undefined otherwise', () => {
      expect(attempt('slots.name.ab', { name: 'abc' }).ok).to.equal(false);
      expect(evaluate('slots.name.zz is undefined', { name: 'abc' })).to.equal(true);
    });

    it('accepts - : and ; inside names', () => {
      expect(evaluate('slots.my-slot:v;2 = 1', { 'my-slot:v;2': 1 })).to.equal(true);
    });

    it('treats a JS undefined slot value as a missing key', () => {
      expect(evaluate('slots.x is undefined', { x: undefined })).to.equal(true);
    });
  });

  describe('equality (Python ==)', () => {
    it('considers 1 and 1.0 equal', () => {
      expect(evaluate('slots.n = 1.0', { n: 1 })).to.equal(true);
    });

    it('does not consider the string "1" equal to the number 1', () => {
      expect(evaluate('slots.s = 1', { s: '1' })).to.equal(false);
      expect(evaluate('slots.s != 1', { s: '1' })).to.equal(true);
    });

    it('considers True equal to 1, as Python does', () => {
      expect(evaluate('slots.flag = 1', { flag: true })).to.equal(true);
      expect(evaluate('slots.count is true', { count: 1 })).to.equal(true);
    });

    it('treats == exactly like =', () => {
      expect(evaluate('slots.x == "a"', { x: 'a' })).to.equal(true);
      expect(parse('a == b')).to.deep.include({ kind: 'compare', operator: '=' });
    });

    it('compares lists and dicts deeply', () => {
      expect(evaluate('slots.a = slots.b', { a: [1, ['x']], b: [1.0, ['x']] })).to.equal(true);
      expect(evaluate('slots.a = slots.b', { a: { k: [1] }, b: { k: [1] } })).to.equal(true);
      expect(evaluate('slots.a = slots.b', { a: { k: 1 }, b: { k: 1, j: 2 } })).to.equal(false);
    });

    it('compares strings case-sensitively', () => {
      expect(evaluate('slots.x = "yes"', { x: 'Yes' })).to.equal(false);
    });

    it('makes Undefined equal only to Undefined and Empty', () => {
      expect(evaluate('slots.missing = undefined and slots.missing = empty')).to.equal(true);
      expect(evaluate('slots.missing = ""')).to.equal(false);
    });

    it('makes Empty equal to anything of length zero but not to null', () => {
      expect(
        evaluate('slots.s = empty and slots.l = empty and slots.d = empty', { s: '', l: [], d: {} }),
      ).to.equal(true);
      expect(evaluate('slots.x = empty', { x: null })).to.equal(false);
      expect(evaluate('slots.x = empty', { x: 0 })).to.equal(false);
    });

    it("keeps pypred's asymmetric != between undefined and empty", () => {
      expect(evaluate('undefined != empty')).to.equal(true);
      expect(evaluate('empty != undefined')).to.equal(false);
      expect(evaluate('undefined != undefined')).to.equal(false);
    });

    it('finds a null slot not equal to undefined', () => {
      expect(evaluate('slots.x != undefined', { x: null })).to.equal(true);
    });
  });

  describe('ordering comparisons', () => {
    it('compares numbers with > >= < <=', () => {
      const slots = { n: 5 };
      expect(evaluate('slots.n > 3 and slots.n >= 5 and slots.n < 6 and slots.n <= 5', slots)).to.equal(true);
      expect(evaluate('slots.n > 5', slots)).to.equal(false);
    });

    it('is false, without an error, when either side is Undefined', () => {
      expect(attempt('slots.missing > 1')).to.deep.equal({ ok: true, value: false });
      expect(evaluate('slots.missing <= 1')).to.equal(false);
      expect(evaluate('1 < slots.missing')).to.equal(false);
    });

    it('is false when either side is Empty', () => {
      expect(evaluate('slots.n >= empty', { n: 1 })).to.equal(false);
    });

    it('makes the whole condition false when comparing a string with a number', () => {
      expect(attempt('slots.s > 1', { s: 'abc' }).ok).to.equal(false);
      expect(evaluate('slots.s > 1 or true', { s: 'abc' })).to.equal(false);
    });

    it('orders strings lexicographically', () => {
      expect(evaluate('slots.s < "b"', { s: 'abc' })).to.equal(true);
      expect(evaluate('slots.s < "B"', { s: 'abc' })).to.equal(false);
    });

    it('counts a bool as an int', () => {
      expect(evaluate('slots.flag < 2 and slots.flag > 0', { flag: true })).to.equal(true);
    });

    it('raises when ordering null', () => {
      expect(attempt('slots.x < 1', { x: null }).ok).to.equal(false);
    });

    it('orders lists item by item', () => {
      expect(evaluate('slots.a < slots.b', { a: [1, 2], b: [1, 3] })).to.equal(true);
      expect(evaluate('slots.a < slots.b', { a: [1, 2], b: [1, 2, 0] })).to.equal(true);
    });

    it('reads a negative decimal literal as one number', () => {
      expect(parse('slots.t > -1.5')).to.deep.include({ right: { kind: 'number', value: -1.5, offset: 10 } });
      expect(evaluate('slots.t > -1.5', { t: -1 })).to.equal(true);
    });
  });

  describe('is / is not', () => {
    it('makes `is` an equality test', () => {
      expect(evaluate("slots.x is 'a'", { x: 'a' })).to.equal(true);
    });

    it('makes `is not` an inequality test', () => {
      expect(evaluate("slots.x is not 'a'", { x: 'b' })).to.equal(true);
      expect(parse('a is not b')).to.deep.include({ kind: 'compare', operator: '!=' });
    });
  });

  describe('contains', () => {
    it('tests a substring of a string, case-sensitively', () => {
      expect(evaluate('slots.product contains "Rasa"', { product: 'Rasa Pro' })).to.equal(true);
      expect(evaluate('slots.product contains "Rasa"', { product: 'rasa pro' })).to.equal(false);
    });

    it('tests an element of a list with Python equality', () => {
      expect(evaluate('slots.list contains 2', { list: [1, 2] })).to.equal(true);
      expect(evaluate('slots.list contains "2"', { list: [1, 2] })).to.equal(false);
    });

    it('tests an element of a set literal', () => {
      const condition = "{'WARN' 'ERR' 'CRIT'} contains slots.level";
      expect(evaluate(condition, { level: 'ERR' })).to.equal(true);
      expect(evaluate(condition, { level: 'INFO' })).to.equal(false);
    });

    it('resolves bare words inside a set literal as names', () => {
      expect(evaluate("{slots.a slots.b} contains 'x'", { a: 'y', b: 'x' })).to.equal(true);
      expect(evaluate("{x y} contains 'x'")).to.equal(false);
    });

    it('mixes numbers and constants in a set literal', () => {
      expect(evaluate('{1 true null} contains slots.v', { v: null })).to.equal(true);
      expect(evaluate('{2 false} contains slots.v', { v: 0 })).to.equal(true);
    });

    it('tests a key of a dict', () => {
      expect(evaluate("slots.d contains 'k'", { d: { k: 1 } })).to.equal(true);
    });

    it('is false, without an error, for a left side that cannot hold members', () => {
      expect(attempt('slots.n contains 1', { n: 10 })).to.deep.equal({ ok: true, value: false });
      expect(evaluate('slots.x contains 1', { x: null })).to.equal(false);
      expect(evaluate('slots.missing contains "a"')).to.equal(false);
    });

    it('raises when asking a string for a number', () => {
      expect(attempt('slots.s contains 1', { s: 'a1' }).ok).to.equal(false);
    });

    it('rejects undefined, empty or a set on its right side at parse time', () => {
      expect(syntaxError('slots.x contains empty')).to.deep.include({ offset: 17 });
      expect(syntaxError('slots.x contains undefined').offset).to.equal(17);
      expect(syntaxError("slots.x contains {'a'}").offset).to.equal(17);
    });

    it('accepts an empty set literal, which equals empty', () => {
      expect(evaluate("{} contains 'a'")).to.equal(false);
      expect(evaluate('{} = empty')).to.equal(true);
    });

    it('rejects commas between set items', () => {
      expect(syntaxError("{'a', 'b'} contains slots.x").offset).to.equal(4);
    });
  });

  describe('matches', () => {
    it('searches for the pattern anywhere in the string (not a full match)', () => {
      expect(evaluate('slots.s matches "b"', { s: 'abc' })).to.equal(true);
      expect(evaluate('slots.s matches "^b"', { s: 'abc' })).to.equal(false);
    });

    it('honours flags of a /pattern/flags token', () => {
      expect(evaluate('slots.s matches /^rasa/i', { s: 'Rasa Pro' })).to.equal(true);
      expect(evaluate('slots.s matches /^rasa/', { s: 'Rasa Pro' })).to.equal(false);
    });

    it("honours Python's leading inline flags inside a quoted pattern", () => {
      expect(evaluate('slots.s matches "(?i)^rasa"', { s: 'RASA' })).to.equal(true);
    });

    it('translates Python named groups and back-references', () => {
      expect(evaluate('slots.s matches "^(?P<d>[0-9])(?P=d)$"', { s: '11' })).to.equal(true);
      expect(evaluate('slots.s matches "^(?P<d>[0-9])(?P=d)$"', { s: '12' })).to.equal(false);
    });

    it('checks a US zip code the way the Rasa docs do', () => {
      const condition = 'not slots.zip matches "^[0-9]{5}(?:-[0-9]{4})?$"';
      expect(evaluate(condition, { zip: '12345-6789' })).to.equal(false);
      expect(evaluate(condition, { zip: '1234' })).to.equal(true);
    });

    it('is false for a left side that is not a string', () => {
      expect(attempt('slots.n matches "1"', { n: 1 })).to.deep.equal({ ok: true, value: false });
      expect(evaluate('slots.missing matches ".*"')).to.equal(false);
    });

    it('uses the right side as pattern text, never as a slot lookup', () => {
      expect(evaluate('slots.s matches slots.p', { s: 'abc', p: 'abc' })).to.equal(false);
      expect(evaluate('slots.s matches slots.p', { s: 'slotsXp' })).to.equal(true);
    });

    it('reports a pattern that does not compile as a syntax error at the pattern', () => {
      expect(syntaxError('slots.s matches "("').offset).to.equal(16);
      expect(syntaxError('slots.s matches /a/l').message).to.contain('LOCALE');
    });

    it('requires a word or string as the pattern', () => {
      expect(syntaxError('slots.s matches 5').offset).to.equal(16);
      expect(syntaxError('slots.s matches true').offset).to.equal(16);
    });
  });

  describe('empty, undefined and null', () => {
    it('finds empty strings and lists, and missing slots, empty', () => {
      expect(evaluate('slots.s is empty', { s: '' })).to.equal(true);
      expect(evaluate('slots.s is empty', { s: 'a' })).to.equal(false);
      expect(evaluate('slots.l is empty', { l: [] })).to.equal(true);
      expect(evaluate('slots.missing is empty')).to.equal(true);
    });

    it('does not find null empty', () => {
      expect(evaluate('slots.x is empty', { x: null })).to.equal(false);
    });

    it('finds a missing slot not equal to null', () => {
      expect(evaluate('slots.missing = null')).to.equal(false);
      expect(evaluate('slots.missing != null')).to.equal(true);
    });
  });

  describe('truthiness of a bare factor', () => {
    it('uses the truthiness of a slot value', () => {
      expect(evaluate('slots.confirm', { confirm: true })).to.equal(true);
      expect(evaluate('slots.confirm', { confirm: false })).to.equal(false);
      expect(evaluate('slots.count', { count: 0 })).to.equal(false);
      expect(evaluate('slots.items', { items: [] })).to.equal(false);
    });

    it('finds a non-empty string truthy, even the string "False"', () => {
      expect(evaluate('slots.answer', { answer: 'False' })).to.equal(true);
    });

    it('negates truthiness with not', () => {
      expect(evaluate('not slots.name', { name: '' })).to.equal(true);
      expect(evaluate('not slots.name', { name: 'Ann' })).to.equal(false);
      expect(evaluate('not slots.missing')).to.equal(true);
    });

    it('finds undefined, empty, null and an empty set falsy, a non-empty set truthy', () => {
      expect(evaluate('undefined or empty or null or {}')).to.equal(false);
      expect(evaluate("{'a'}")).to.equal(true);
    });

    it('finds quoted strings and non-zero numbers truthy', () => {
      expect(evaluate("'x' and 1.5")).to.equal(true);
      expect(evaluate("''")).to.equal(false);
    });
  });

  describe('literals and comments', () => {
    it('ignores a # comment to the end of the line', () => {
      expect(evaluate('slots.a = 1 # the amount', { a: 1 })).to.equal(true);
      expect(evaluate('# first line is a comment\nslots.a = 1', { a: 1 })).to.equal(true);
    });

    it('reads every number as a float', () => {
      expect(parse('5')).to.deep.equal({ kind: 'number', value: 5, offset: 0 });
      expect(evaluate('slots.p = 0.25', { p: 0.25 })).to.equal(true);
    });

    it('reads Unicode decimal digits as Python float() does', () => {
      expect(parse('١٢')).to.deep.equal({ kind: 'number', value: 12, offset: 0 });
    });

    it('splits a number directly followed by letters into two tokens (a syntax error)', () => {
      expect(syntaxError('slots.a = 1abc')).to.deep.equal({ message: 'Syntax error at "abc"', offset: 11 });
    });

    it('reads single- and double-quoted strings, each able to hold the other quote', () => {
      expect(evaluate(`slots.a = 'say "hi"' and slots.b = "it's"`, { a: 'say "hi"', b: "it's" })).to.equal(
        true,
      );
    });

    it('keeps spaces and keywords inside quotes', () => {
      expect(evaluate('slots.s = "not and or"', { s: 'not and or' })).to.equal(true);
    });

    it('reads Unicode letters in names and strings', () => {
      expect(evaluate("slots.stadt = 'Köln'", { stadt: 'Köln' })).to.equal(true);
      expect(evaluate('slots.größe > 1', { größe: 2 })).to.equal(true);
    });
  });

  describe('syntax errors', () => {
    it('reports an empty condition at offset 0', () => {
      expect(syntaxError('')).to.deep.equal({ message: 'Unexpected end of condition', offset: 0 });
      expect(syntaxError('   # only a comment').offset).to.equal(19);
    });

    it('reports a missing right operand at the end of the text', () => {
      expect(syntaxError('slots.a = ')).to.deep.equal({ message: 'Unexpected end of condition', offset: 10 });
    });

    it('reports an unterminated quote at the quote', () => {
      expect(syntaxError("slots.x = 'abc").offset).to.equal(10);
    });

    it('reports a chained comparison at the second operator', () => {
      expect(syntaxError('a = b = c').offset).to.equal(6);
    });

    it('reports unbalanced parentheses', () => {
      expect(syntaxError('(slots.a = 1').offset).to.equal(12);
      expect(syntaxError('slots.a = 1)').offset).to.equal(11);
    });

    it('reports characters the language does not know', () => {
      expect(syntaxError('slots.a && slots.b')).to.deep.equal({
        message: 'Failed to parse characters "&&"',
        offset: 8,
      });
      expect(syntaxError('!slots.a').offset).to.equal(0);
    });

    it('reports two factors without an operator', () => {
      expect(syntaxError('slots.a slots.b').offset).to.equal(8);
    });

    it('rejects `is not not`', () => {
      expect(syntaxError('a is not not b').offset).to.equal(9);
    });
  });

  describe('evaluation errors', () => {
    it('turns a Python exception into false, with the message available from tryEvaluateCondition', () => {
      const result = attempt('slots.s >= 1', { s: 'x' });
      expect(result).to.deep.equal({
        ok: false,
        error: "'>=' not supported between instances of 'str' and 'float'",
      });
      expect(evaluate('slots.s >= 1', { s: 'x' })).to.equal(false);
    });

    it('short-circuits and/or before a failing operand is evaluated', () => {
      expect(attempt('false and slots.s > 1', { s: 'x' })).to.deep.equal({ ok: true, value: false });
      expect(attempt('true or slots.s > 1', { s: 'x' })).to.deep.equal({ ok: true, value: true });
    });

    it('raises for an unhashable value looked up in a set literal', () => {
      expect(attempt('{slots.l} contains 1', { l: [1] }).ok).to.equal(false);
    });
  });

  describe('static analysis', () => {
    it('lists every identifier in source order with its offset', () => {
      const ast = parse("slots.amount > 10 and ({context.collect foo} contains 'x' or bar)");
      expect(conditionIdentifiers(ast)).to.deep.equal([
        { name: 'slots.amount', offset: 0 },
        { name: 'context.collect', offset: 24 },
        { name: 'foo', offset: 40 },
        { name: 'bar', offset: 61 },
      ]);
    });

    it('does not list quoted strings or matches patterns as identifiers', () => {
      expect(conditionIdentifiers(parse("slots.a matches slots.b or 'c'"))).to.deep.equal([
        { name: 'slots.a', offset: 0 },
      ]);
    });

    it('lists comparisons between an identifier and a literal, on either side', () => {
      const ast = parse("slots.x = 'a' or true is slots.flag or slots.n != 2");
      expect(conditionComparisons(ast)).to.deep.equal([
        { identifier: 'slots.x', literal: 'a', offset: 0 },
        { identifier: 'slots.flag', literal: true, offset: 25 },
        { identifier: 'slots.n', literal: 2, offset: 39 },
      ]);
    });

    it('reports null, undefined and empty literals, the latter two as markers', () => {
      const comparisons = conditionComparisons(
        parse('slots.a is null or slots.b is undefined or slots.c = empty'),
      );
      expect(comparisons.map((comparison) => comparison.literal)).to.deep.equal([null, UNDEFINED, EMPTY]);
      expect(comparisons[1]?.literal).to.deep.equal({ kind: 'undefined' });
    });

    it('ignores comparisons between two identifiers and non-equality operators other than compares', () => {
      expect(conditionComparisons(parse("slots.a = slots.b or slots.c contains 'x'"))).to.deep.equal([]);
    });
  });
});

import { expect } from 'chai';
import { pyRepr, pyStr } from '../../../../src/core/flows/conditions/python-str.js';
import { PyFrozenSet } from '../../../../src/core/flows/conditions/python-values.js';

// What Python's repr() and str() print for the values a tracker holds (as Jinja renders them in flows and
// responses). Each expected text is what CPython 3 prints.
describe("Python's repr() and str() of tracker values", () => {
  const reprs: readonly (readonly [string, unknown, string])[] = [
    ['None', null, 'None'],
    ['a bool', false, 'False'],
    ['an int', -42, '-42'],
    ['zero', 0, '0'],
    ['a whole number too large for JavaScript to print without an exponent', 1e21, '1000000000000000000000'],
    ['a float', 2.5, '2.5'],
    ['the smallest float without an exponent', 0.0001, '0.0001'],
    ['a small float with a two-digit exponent', 0.00001, '1e-05'],
    ['a smaller float', 1.5e-7, '1.5e-07'],
    ['a float with a three-digit exponent', 1e-100, '1e-100'],
    ['nan', Number.NaN, 'nan'],
    ['infinity', Number.POSITIVE_INFINITY, 'inf'],
    ['minus infinity', Number.NEGATIVE_INFINITY, '-inf'],
    ['a string, in single quotes', 'hi', "'hi'"],
    ['a string with a single quote, in double quotes', "it's", `"it's"`],
    ['a string with both quotes, escaping the single one', `it's "x"`, `'it\\'s "x"'`],
    ['a string with a double quote only', 'say "hi"', `'say "hi"'`],
    ['backslash, newline, carriage return and tab', '\\\n\r\t', "'\\\\\\n\\r\\t'"],
    ['other control characters and DEL as \\x escapes', '\u0001\u001f\u007f', "'\\x01\\x1f\\x7f'"],
    ['space and non-ASCII letters as they are', ' zoë 😀', "' zoë 😀'"],
    ['a list', ['a', 1, null, [true]], "['a', 1, None, [True]]"],
    ['a dict, leaving out undefined members', { k: 'v', n: 1, gone: undefined }, "{'k': 'v', 'n': 1}"],
    ['an empty frozenset', new PyFrozenSet([]), 'frozenset()'],
    ['a frozenset', new PyFrozenSet(['a', 1]), "frozenset({'a', 1})"],
  ];
  for (const [what, value, expected] of reprs) {
    it(`repr of ${what}: ${expected}`, () => expect(pyRepr(value)).to.equal(expected));
  }

  it('str of a string is the string itself, of anything else its repr', () => {
    expect(pyStr("it's")).to.equal("it's");
    expect(pyStr(["it's"])).to.equal(`["it's"]`);
    expect(pyStr(null)).to.equal('None');
  });
});

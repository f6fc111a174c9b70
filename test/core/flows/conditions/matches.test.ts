import { expect } from 'chai';
import { evaluateCondition, parseCondition } from '../../../../src/core/flows/conditions/index.js';

// `matches` compiles its right side with Python's `re` after pypred strips quote characters from both
// ends (str.strip("'\"")): Python's syntax and inline flags are translated to JavaScript's.

function matches(pattern: string, subject: string): boolean {
  const parsed = parseCondition(`slots.s matches ${pattern}`);
  if (!parsed.ok) throw new Error(`${pattern}: ${parsed.error.message}`);
  return evaluateCondition(parsed.ast, { slots: { s: subject }, context: {} });
}

function rejected(pattern: string): string {
  const parsed = parseCondition(`slots.s matches ${pattern}`);
  if (parsed.ok) throw new Error(`expected ${pattern} to be rejected`);
  return parsed.error.message;
}

describe('matches (Python regular expressions)', () => {
  it('strips every quote character at both ends, and only there', () => {
    expect(matches(`"it's"`, "it's")).to.equal(true);
    expect(matches(`"it's"`, 'its')).to.equal(false);
    expect(matches(`"''x"`, 'x')).to.equal(true);
    expect(matches(`"^x''"`, 'x')).to.equal(true);
  });

  it('keeps backslash escapes', () => {
    expect(matches('"^\\d+$"', '123')).to.equal(true);
    expect(matches('"^\\d+$"', '12a')).to.equal(false);
  });

  it('reads \\A and \\Z as the very start and end of the text', () => {
    expect(matches('"\\Afoo\\Z"', 'foo')).to.equal(true);
    expect(matches('"\\Afoo\\Z"', 'foo\n')).to.equal(false);
    expect(matches('"\\Afoo"', 'a\nfoo')).to.equal(false);
  });

  it('applies the inline flags m and s, together too', () => {
    expect(matches('"(?m)^b"', 'a\nb')).to.equal(true);
    expect(matches('"^b"', 'a\nb')).to.equal(false);
    expect(matches('"(?s)a.b"', 'a\nb')).to.equal(true);
    expect(matches('"a.b"', 'a\nb')).to.equal(false);
    expect(matches('"(?im)^B"', 'a\nb')).to.equal(true);
    expect(matches('"(?i)(?s)A.B"', 'a\nb')).to.equal(true);
  });

  it('accepts the ASCII and Unicode flags', () => {
    expect(matches('"(?a)^\\w+$"', 'abc')).to.equal(true);
    expect(matches('"(?u)^\\w+$"', 'abc')).to.equal(true);
  });

  it('rejects the flags Python rejects for text, and those it does not support', () => {
    expect(rejected('"(?L)a"')).to.equal('cannot use LOCALE flag with a str pattern');
    expect(rejected('"(?x)a"')).to.equal('the verbose regex flag (x) is not supported');
    expect(rejected('/a/q')).to.equal('unknown regex flag "q"');
  });
});

import { expect } from 'chai';
import {
  conditionComparisons,
  conditionIdentifiers,
  parseCondition,
  type ConditionSyntaxError,
} from '../../../../src/core/flows/conditions/index.js';

// What `parley data validate` reports for a condition that pypred would not accept, and where.

function syntaxError(text: string): ConditionSyntaxError {
  const parsed = parseCondition(text);
  if (parsed.ok) throw new Error(`expected a syntax error for ${text}`);
  return parsed.error;
}

function parse(text: string) {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.message}`);
  return parsed.ast;
}

describe('condition syntax errors', () => {
  it('points at a word that follows a complete condition', () => {
    expect(syntaxError('slots.a true')).to.deep.equal({ message: 'Syntax error at "true"', offset: 8 });
    expect(syntaxError('slots.a is 1 slots.b')).to.deep.equal({
      message: 'Syntax error at "slots.b"',
      offset: 13,
    });
  });

  it('points at punctuation that cannot start a value', () => {
    expect(syntaxError(') or slots.a')).to.deep.equal({ message: 'Syntax error at ")"', offset: 0 });
    expect(syntaxError('slots.a = = 1')).to.deep.equal({ message: 'Syntax error at "="', offset: 10 });
  });

  it('needs a closing parenthesis, not any other punctuation', () => {
    expect(syntaxError('(slots.a = 1}')).to.deep.equal({ message: 'Syntax error at "}"', offset: 12 });
    expect(syntaxError('(slots.a = 1')).to.deep.equal({ message: 'Unexpected end of condition', offset: 12 });
  });

  it('reports the character it cannot read up to the next space', () => {
    expect(syntaxError('slots.a = ~~~')).to.deep.equal({
      message: 'Failed to parse characters "~"',
      offset: 10,
    });
    expect(syntaxError('slots.a = 1 ~x~ or b')).to.deep.equal({
      message: 'Failed to parse characters "~x~"',
      offset: 12,
    });
  });

  it('finds an invalid contains or matches anywhere in the condition, not only at its top', () => {
    expect(syntaxError('slots.a = 1 and slots.b matches "("').offset).to.equal(32);
    expect(syntaxError('slots.a = 1 or (slots.b matches "(" and slots.c)').offset).to.equal(32);
    const text = 'slots.a = 1 and slots.b contains (slots.c = 1)';
    const contains = syntaxError(text);
    expect(contains.offset).to.equal(text.lastIndexOf('='));
    expect(contains.message).to.equal(
      'contains needs a literal, a name or a constant (true, false, null) on its right side',
    );
    expect(syntaxError('not slots.b matches "("').offset).to.equal(20);
  });

  it('says what matches needs on its right side', () => {
    expect(syntaxError('slots.s matches 5').message).to.equal(
      'matches needs a pattern string on its right side',
    );
    expect(syntaxError('slots.s matches "("').message).to.match(/^Invalid regular expression "\("/);
  });
});

describe('what a condition reads (for the validator)', () => {
  it('lists the names under a not', () => {
    expect(conditionIdentifiers(parse('not slots.a'))).to.deep.equal([{ name: 'slots.a', offset: 4 }]);
  });

  it('lists no comparison between two literals', () => {
    expect(conditionComparisons(parse("1 = 2 or 'a' = slots.b"))).to.deep.equal([
      { identifier: 'slots.b', literal: 'a', offset: 15 },
    ]);
  });
});

import { expect } from 'chai';
import { conditionHolds } from '../../../src/core/executor/conditions.js';
import type { Condition } from '../../../src/core/flows/types.js';

// Conditions with Jinja (`slots.{{context.collect}} is not null`, as rejections and the default
// patterns write them) are rendered with the frame context, then parsed and evaluated.

function template(text: string): Condition {
  return { text, ast: undefined, isTemplate: true };
}

// every run of a test renders a condition text no earlier run has seen, so the first parse is exercised
let fresh = 0;

describe('template conditions in flows', () => {
  it('is false when the rendered text is not a condition', () => {
    const scope = { slots: { amount: 5 }, context: { collect: 'amount' } };
    expect(conditionHolds(template('slots.{{context.collect}} >'), scope)).to.equal(false);
    expect(conditionHolds(template('slots.{{context.collect}} > 1'), scope)).to.equal(true);
  });

  it('evaluates a rendered condition it meets for the first time, and the same one again', () => {
    fresh += 1;
    const slot = `amount_${fresh}`;
    const condition = template(`slots.{{context.collect}} is not null`);
    const filled = { slots: { [slot]: 10 }, context: { collect: slot } };
    const empty = { slots: { [slot]: null }, context: { collect: slot } };
    expect(conditionHolds(condition, filled)).to.equal(true);
    expect(conditionHolds(condition, empty)).to.equal(false);
    expect(conditionHolds(condition, filled)).to.equal(true);
  });
});

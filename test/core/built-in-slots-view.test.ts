import { expect } from 'chai';
import { slotsFor } from '../../src/core/domain/built-in-slots.js';
import { conditionHolds } from '../../src/core/executor/conditions.js';
import { parseCondition } from '../../src/core/flows/conditions/index.js';
import type { Condition } from '../../src/core/flows/types.js';

function condition(text: string, isTemplate = false): Condition {
  const parsed = parseCondition(text);
  return { text, isTemplate, ...(parsed.ok && !isTemplate ? { ast: parsed.ast } : {}) } as Condition;
}

describe('built-in slots in conditions, without copying the slots for conditions that do not name one', () => {
  const slots = { amount: 10 };

  it('hands a condition that names no built-in slot the slot record itself', () => {
    expect(slotsFor('slots.amount > 5', slots)).to.equal(slots);
  });

  it('gives a condition naming a built-in slot the view where the unset slot is null', () => {
    const view = slotsFor('slots.language is null', slots);
    expect(view).to.include({ amount: 10, language: null, requested_slot: null });
    expect(view).not.to.have.property('dialogue_stack');
  });

  it('reads an unset built-in slot as null and a missing ordinary slot as undefined, as Rasa does', () => {
    const scope = { slots, context: {} };
    expect(conditionHolds(condition('slots.language is null'), scope)).to.equal(true);
    expect(conditionHolds(condition('slots.amount > 5'), scope)).to.equal(true);
    expect(conditionHolds(condition('slots.unknown is null'), scope)).to.equal(false);
  });

  it('looks at the rendered text of a template condition', () => {
    const scope = { slots, context: { collect: 'requested_slot' } };
    expect(conditionHolds(condition('slots.{{context.collect}} is null', true), scope)).to.equal(true);
  });
});

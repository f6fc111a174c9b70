import { expect } from 'chai';
import { slotsFor, withBuiltInSlots } from '../../../src/core/domain/built-in-slots.js';

const ALL_BUILT_IN_SLOTS_SET = {
  requested_slot: 'amount',
  session_started_metadata: {},
  flow_hashes: {},
  mocked_datetime: '2026-01-01',
  language: 'de',
  route_session_to_calm: true,
};

describe('built-in slots as conditions and responses see them', () => {
  it('reads every unset built-in slot but dialogue_stack as null, keeping the set slots', () => {
    expect(withBuiltInSlots({ amount: 3, language: 'de' })).to.deep.equal({
      amount: 3,
      language: 'de',
      requested_slot: null,
      session_started_metadata: null,
      flow_hashes: null,
      mocked_datetime: null,
      route_session_to_calm: null,
    });
  });

  it('hands back the slot record itself when every built-in slot is set', () => {
    const slots = { ...ALL_BUILT_IN_SLOTS_SET, amount: 3 };
    expect(withBuiltInSlots(slots)).to.equal(slots);
  });

  it('adds the nulls when only the last built-in slot is missing', () => {
    const { route_session_to_calm: _unset, ...slots } = ALL_BUILT_IN_SLOTS_SET;
    expect(withBuiltInSlots(slots)).to.deep.equal({ ...slots, route_session_to_calm: null });
  });

  it('sees a built-in slot named as a whole word only', () => {
    const slots = { planguage: 'x' };
    expect(slotsFor('slots.planguage = "x"', slots)).to.equal(slots);
    expect(slotsFor('slots.language_code = "x"', slots)).to.equal(slots);
    expect(slotsFor('{{slots.flow_hashes}}', slots)).to.have.property('flow_hashes', null);
  });
});

import { expect } from 'chai';
import { valueForSlot } from '../../../src/understanding/nlu/slot-values/index.js';
import { entity, fromEntity, slot } from './helpers.js';

describe('valueForSlot: from_entity mappings', () => {
  it('takes the value of the mapped entity before reading the message', () => {
    const city = slot('text', { mappings: [fromEntity('city')] });
    expect(valueForSlot(city, 'to Paris please', [entity('city', 'Paris')])).to.deep.equal({
      value: 'Paris',
      source: 'entity',
    });
  });

  it('requires the role and group of the mapping, and no role when the mapping has none', () => {
    const departure = slot('text', { mappings: [fromEntity('city', { role: 'departure' })] });
    const plain = slot('text', { mappings: [fromEntity('city')] });
    const entities = [
      entity('city', 'Rome', { role: 'destination' }),
      entity('city', 'Oslo', { role: 'departure' }),
    ];
    expect(valueForSlot(departure, 'x', entities)?.value).to.equal('Oslo');
    expect(valueForSlot(plain, 'from Oslo to Rome', entities)).to.deep.equal({
      value: 'from Oslo to Rome',
      source: 'text',
    });
    const grouped = slot('text', { mappings: [fromEntity('size', { group: '2' })] });
    const sizes = [entity('size', 'small', { group: '1' }), entity('size', 'large', { group: '2' })];
    expect(valueForSlot(grouped, 'x', sizes)?.value).to.equal('large');
  });

  it('gives a list slot every matching value and other slots the last one', () => {
    const toppings = [entity('topping', 'ham'), entity('topping', 'olives')];
    expect(
      valueForSlot(slot('list', { mappings: [fromEntity('topping')] }), 'x', toppings)?.value,
    ).to.deep.equal(['ham', 'olives']);
    expect(valueForSlot(slot('text', { mappings: [fromEntity('topping')] }), 'x', toppings)?.value).to.equal(
      'olives',
    );
  });

  it('converts the entity value to the slot type', () => {
    const amount = slot('float', { mappings: [fromEntity('amount')] });
    expect(valueForSlot(amount, 'x', [entity('amount', '50')])?.value).to.equal(50);
    expect(valueForSlot(amount, 'x', [entity('amount', 'fifty')])?.value).to.equal(50);
    const account = slot('categorical', {
      values: ['Savings', 'Checking'],
      mappings: [fromEntity('account')],
    });
    expect(valueForSlot(account, 'x', [entity('account', 'savings account')])?.value).to.equal('Savings');
  });

  it('leaves an entity value that does not fit the type unchanged, for the rejection to report', () => {
    const amount = slot('float', { mappings: [fromEntity('amount')] });
    expect(valueForSlot(amount, 'x', [entity('amount', 'lots')])?.value).to.equal('lots');
  });

  it('honours the intent filter of a mapping when the intent is known', () => {
    const city = slot('text', { mappings: [fromEntity('city', { intent: ['book'] })] });
    expect(valueForSlot(city, 'Rome', [entity('city', 'Paris')], { intent: 'other' })?.value).to.equal(
      'Rome',
    );
    expect(valueForSlot(city, 'Rome', [entity('city', 'Paris')], { intent: 'book' })?.value).to.equal(
      'Paris',
    );
  });

  it('does not fill a controlled slot from the message', () => {
    const controlled = slot('text', { mappings: [{ type: 'controlled', conditions: [] }] });
    expect(valueForSlot(controlled, 'anything', [])).to.equal(undefined);
  });
});

describe('valueForSlot: the message read as the slot type', () => {
  it('text: the whole message, trimmed', () => {
    expect(valueForSlot(slot('text'), '  Jane Doe \n', [])).to.deep.equal({
      value: 'Jane Doe',
      source: 'text',
    });
    expect(valueForSlot(slot('text'), '   ', [])).to.equal(undefined);
  });

  it('any: the message as given', () => {
    expect(valueForSlot(slot('any'), ' as is ', [])?.value).to.equal(' as is ');
  });

  it('list: never filled from text', () => {
    expect(valueForSlot(slot('list'), 'ham, olives', [])).to.equal(undefined);
  });

  it('float, bool and categorical use their readers', () => {
    expect(valueForSlot(slot('float'), '$1,200.50', [])?.value).to.equal(1200.5);
    expect(valueForSlot(slot('bool'), 'yes please', [])?.value).to.equal(true);
    expect(valueForSlot(slot('categorical', { values: ['Savings'] }), 'the savings one', [])?.value).to.equal(
      'Savings',
    );
  });
});

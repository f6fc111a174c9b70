import { expect } from 'chai';
import {
  MAX_CHANGED_CUSTOMERS,
  changedCustomers,
  customerFor,
  customerToChange,
  transfer,
} from '../../actions/bank-data.js';

describe("the bundled assistant's fake bank (actions/bank-data.ts)", () => {
  it('lets conversations read the shared original, which nothing can change', () => {
    const before = changedCustomers();
    const seen = customerFor('bank-reader');
    expect(seen.balances.checking).to.equal(2450.75);
    expect(customerFor('bank-other-reader')).to.equal(seen);
    expect(changedCustomers(), 'reading keeps no copy').to.equal(before);
    expect(() => {
      (seen.balances as { checking: number }).checking = 0;
    }).to.throw(TypeError);
  });

  it('gives a conversation its own copy when it changes something, seen by it alone', () => {
    const result = transfer(customerToChange('bank-payer'), { recipient: 'Alice', amount: 50 });
    expect(result.status).to.equal('completed');
    expect(customerFor('bank-payer').balances.checking).to.equal(2400.75);
    expect(customerFor('bank-payer').transactions[0]?.description).to.equal('Transfer to Alice');
    expect(customerFor('bank-bystander').balances.checking).to.equal(2450.75);
  });

  it('keeps at most MAX_CHANGED_CUSTOMERS copies, forgetting the least recently used', () => {
    transfer(customerToChange('bank-kept'), { recipient: 'Alice', amount: 1 });
    for (let index = 0; index < MAX_CHANGED_CUSTOMERS; index += 1) {
      if (index % 1000 === 0) customerFor('bank-kept'); // used now and then: stays
      customerToChange(`bank-many-${index}`);
    }
    expect(changedCustomers()).to.equal(MAX_CHANGED_CUSTOMERS);
    expect(customerFor('bank-kept').balances.checking).to.equal(2449.75);
    expect(customerFor('bank-many-0'), 'the oldest copy is forgotten').to.equal(customerFor('bank-reader'));
  });
});

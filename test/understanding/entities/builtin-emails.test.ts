import { expect } from 'chai';
import { BuiltinEntityExtractor } from '../../../src/understanding/nlu/entities/index.js';
import { summary } from './helpers.js';

const emails = new BuiltinEntityExtractor({ dimensions: ['email'] });

describe('built-in e-mail addresses', () => {
  it('finds an address and lower-cases its domain', () => {
    const text = 'write to John.Doe+bank@Example.CO.UK.';
    expect(summary(text, emails.extract(text))).to.deep.equal([
      { entity: 'email', value: 'John.Doe+bank@example.co.uk', text: 'John.Doe+bank@Example.CO.UK' },
    ]);
  });

  it('finds several addresses', () => {
    expect(emails.extract('a@b.io, c_d@e-f.org').map((e) => e.value)).to.deep.equal([
      'a@b.io',
      'c_d@e-f.org',
    ]);
  });

  it('ignores text that only looks like one', () => {
    expect(emails.extract('meet me @ noon, or at user@localhost')).to.deep.equal([]);
  });
});

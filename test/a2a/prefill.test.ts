import { expect } from 'chai';
import { prefillFromParts } from '../../src/a2a/prefill.js';
import type { Part } from '../../src/a2a/tasks/model.js';

const known = new Set(['recipient', 'amount', 'slots']);
const setSlot = (name: string, value: unknown) => ({
  command: 'set slot',
  name,
  value,
  extractor: 'CommandPayloadReader',
});

describe('prefillFromParts (slots from an A2A data part)', () => {
  it('reads {"slots": {...}}, the Rasa client list, and a plain object of slot names alike', () => {
    const wrapped: Part[] = [{ kind: 'data', data: { slots: { recipient: 'Bo', amount: 3 } } }];
    const listed: Part[] = [
      {
        kind: 'data',
        data: {
          slots: [
            { name: 'recipient', value: 'Bo' },
            { name: 'amount', value: 3 },
          ],
        },
      },
    ];
    const plain: Part[] = [{ kind: 'data', data: { recipient: 'Bo', amount: 3 } }];
    for (const parts of [wrapped, listed, plain])
      expect(prefillFromParts(parts, known)).to.deep.equal({
        commands: [setSlot('recipient', 'Bo'), setSlot('amount', 3)],
        warnings: [],
      });
  });

  it('lists unknown names of a plain object in the warnings and fills the known ones', () => {
    const parts: Part[] = [
      { kind: 'text', text: 'send money' },
      { kind: 'data', data: { city: 'Porto', recipient: 'Al' } },
    ];
    expect(prefillFromParts(parts, known)).to.deep.equal({
      commands: [setSlot('recipient', 'Al')],
      warnings: ["unknown slot 'city' ignored"],
    });
  });

  it('takes a scalar `slots` value as a slot of that name, not as the wrapper', () => {
    const parts: Part[] = [{ kind: 'data', data: { slots: 'many' } }];
    expect(prefillFromParts(parts, known).commands).to.deep.equal([setSlot('slots', 'many')]);
  });
});

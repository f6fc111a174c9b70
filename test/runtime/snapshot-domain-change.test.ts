import { expect } from 'chai';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { inlineAssistant, startConversation } from '../support/inline-assistant.js';

const FLOWS = `
  flows:
    greet:
      description: greet
      steps:
        - collect: name
        - collect: city
        - action: utter_hi
`;

function domain(extraSlot: string): string {
  return `
    version: "3.1"
    slots:
      name:
        type: text
        mappings: [{type: from_llm}]
      city:
        type: text
        mappings: [{type: from_llm}]
${extraSlot}
    responses:
      utter_hi:
        - text: hi
      utter_ask_name:
        - text: name?
      utter_ask_city:
        - text: city?
  `;
}

describe('stored snapshots after a domain change', () => {
  it('are ignored when the slots changed: the state is derived from the events with the new domain', async () => {
    const store = new MemoryTrackerStore();
    const before = await startConversation(inlineAssistant({ domain: domain(''), flows: FLOWS }), {
      trackerStore: store,
    });
    await before.send('hi', [{ command: 'start flow', flow: 'greet' }]);
    await before.send('Ann', [{ command: 'set slot', name: 'name', value: 'Ann' }]);
    expect(await before.slots()).to.include({ name: 'Ann' });
    const withTier = domain(
      '      tier:\n        type: text\n        initial_value: gold\n        mappings: [{type: from_llm}]',
    );
    const after = await startConversation(inlineAssistant({ domain: withTier, flows: FLOWS }), {
      trackerStore: store,
    });
    expect(await after.slots()).to.include({ name: 'Ann', tier: 'gold' });
    await after.send('Paris', [{ command: 'set slot', name: 'city', value: 'Paris' }]);
    expect(await after.stack(), 'the flow went on from where it waited').to.deep.equal([]);
  });
});

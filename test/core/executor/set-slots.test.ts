import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  inlineAssistant,
  slotEvents,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });

const assistant = inlineAssistant({
  domain: `
    slots:
      tier:
        type: text
      discount:
        type: float
      vip:
        type: bool
      remembered:
        type: text
    responses:
      utter_vip:
        - text: Welcome, VIP.
      utter_regular:
        - text: Welcome.
      utter_ask_tier:
        - text: Which tier?
  `,
  flows: `
    flows:
      upgrade:
        description: Upgrade the customer.
        persisted_slots:
          - remembered
        steps:
          - set_slots:
              - tier: gold
              - discount: 0.2
              - vip: true
              - remembered: yes
          - noop: true
            next:
              - if: slots.vip
                then:
                  - action: utter_vip
                    next: END
              - else:
                  - action: utter_regular
                    next: END
      downgrade:
        description: Downgrade the customer.
        steps:
          - set_slots:
              - tier: gold
          - set_slots:
              - tier: null
          - collect: tier
  `,
});

describe('set_slots step', () => {
  it('sets the slots in order, and the next steps see the values', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('upgrade', [start('upgrade')]);
    expect(slotEvents(events).slice(0, 4)).to.deep.equal([
      { name: 'tier', value: 'gold' },
      { name: 'discount', value: 0.2 },
      { name: 'vip', value: true },
      { name: 'remembered', value: 'yes' },
    ]);
    expect(utterances(events)[0]).to.equal('utter_vip');
  });

  it('resets the slots it set when the flow ends, unless they are persisted', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('upgrade', [start('upgrade')]);
    expect(slotValues(events, 'tier')).to.deep.equal(['gold', null]);
    expect(slotValues(events, 'vip')).to.deep.equal([true, null]);
    expect(slotValues(events, 'remembered')).to.deep.equal(['yes']);
    const reset = events.filter((event) => event.event === 'slot' && event.value === null);
    for (const event of reset) expect(event.metadata).to.include({ reset: true });
  });

  it('clears a slot with null, so a later collect asks for it', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('downgrade', [start('downgrade')]);
    expect(slotValues(events, 'tier')).to.deep.equal(['gold', null]);
    expect(utterances(events)).to.deep.equal(['utter_ask_tier']);
  });
});

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import { inlineAssistant, startConversation } from '../../support/inline-assistant.js';

// Rasa's reset_scoped_slots: when a flow ends, the slots it collected or set go back to their initial
// values; a slot that already holds its initial value needs no event.

const start = (flow: string): Command => ({ command: 'start flow', flow });

const assistant = inlineAssistant({
  domain: `
    slots:
      colour:
        type: text
        initial_value: white
      tags:
        type: any
        initial_value: {size: 1}
      note:
        type: text
    responses:
      utter_done:
        - text: Done.
  `,
  flows: `
    flows:
      paint:
        description: Paint the wall.
        steps:
          - set_slots:
              - colour: red
              - tags: {size: 1}
              - note: null
          - action: utter_done
  `,
});

function slotEventsAfterCompletion(events: readonly Event[]): { name: string; value: unknown }[] {
  const completed = events.findIndex(
    (event) => event.event === 'flow_completed' && event.flow_id === 'paint',
  );
  return events
    .slice(completed)
    .flatMap((event) => (event.event === 'slot' ? [{ name: event.name, value: event.value }] : []));
}

describe('resetting the slots of an ended flow', () => {
  it('goes back to the initial value, and leaves alone the slots that already hold theirs', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('paint', [start('paint')]);
    expect(slotEventsAfterCompletion(events)).to.deep.equal([{ name: 'colour', value: 'white' }]);
    expect(await conversation.slots()).to.include({ colour: 'white', note: null });
  });
});

import { expect } from 'chai';
import { applyEvent } from '../../src/core/events/apply-event.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import { actionNames, inlineAssistant, startConversation } from '../support/inline-assistant.js';

const DOMAIN = `
  slots:
    route_session_to_calm:
      type: bool
      influence_conversation: false
    user_name:
      type: text
      shared_for_coexistence: true
      mappings: [{type: from_llm}]
    destination:
      type: text
      mappings: [{type: from_llm}]
    seat:
      type: text
      initial_value: aisle
      mappings: [{type: from_llm}]
  responses:
    utter_ask_user_name:
      - text: Your name?
    utter_ask_destination:
      - text: Where to?
    utter_booked:
      - text: Booked.
    utter_anything_else:
      - text: Anything else?
`;

// Rasa's documented way to end a CALM routing session: pattern_completed runs action_reset_routing
const FLOWS = `
  flows:
    book:
      description: Book a trip.
      steps:
        - collect: user_name
          reset_after_flow_ends: false
        - collect: destination
          reset_after_flow_ends: false
        - action: utter_booked
    pattern_completed:
      description: all flows are done
      steps:
        - action: utter_anything_else
        - action: action_reset_routing
`;

describe('Ending a routing session (action_reset_routing, routing_session_ended)', () => {
  it('resets the slots (also those kept after their flow) but the shared_for_coexistence ones, empties the stack and unsets the routing slot', async () => {
    const conversation = await startConversation(inlineAssistant({ domain: DOMAIN, flows: FLOWS }));
    await conversation.send('hi, I am Ana, book a trip', [
      { command: 'set slot', name: 'route_session_to_calm', value: true },
      { command: 'start flow', flow: 'book' },
    ]);
    await conversation.send('Ana', [
      { command: 'set slot', name: 'user_name', value: 'Ana', extractor: 'LLM' },
    ]);
    const events = await conversation.send('Porto', [
      { command: 'set slot', name: 'destination', value: 'Porto', extractor: 'LLM' },
    ]);
    expect(actionNames(events)).to.include.members([
      'utter_booked',
      'utter_anything_else',
      'action_reset_routing',
    ]);
    const reset = events.findIndex((event) => event.event === 'routing_session_ended');
    expect(events[reset + 1]).to.deep.include({ event: 'slot', name: 'route_session_to_calm', value: null });
    const slots = await conversation.slots();
    expect(slots['route_session_to_calm']).to.equal(null);
    expect(slots['user_name']).to.equal('Ana');
    expect(slots['destination']).to.equal(null);
    expect(slots['seat']).to.equal('aisle');
    expect(await conversation.stack()).to.deep.equal([]);
  });

  it('sets the routing slot to null even when it has an initial value (Rasa)', () => {
    const state = createTrackerState({
      senderId: 's',
      initialSlots: { route_session_to_calm: true, shared: null, other: null },
      sharedSlots: ['shared'],
    });
    const set = [
      { event: 'slot', name: 'shared', value: 'kept', timestamp: 1 },
      { event: 'slot', name: 'other', value: 'gone', timestamp: 1 },
      { event: 'active_loop', name: 'some_form', timestamp: 1 },
      { event: 'routing_session_ended', timestamp: 2 },
      { event: 'slot', name: 'route_session_to_calm', value: null, timestamp: 2 },
    ] as const;
    const after = set.reduce(applyEvent, state);
    expect(after.slots).to.deep.equal({ route_session_to_calm: null, shared: 'kept', other: null });
    expect(after.activeLoop).to.equal(null);
  });
});

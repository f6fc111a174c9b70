import { expect } from 'chai';
import type { Event } from '../../src/core/events/types.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import { traceEvents } from '../../src/core/trace/event-trace.js';
import type { TraceEvent } from '../../src/core/trace/trace-events.js';
import { conversationView, replaySteps } from '../../src/server/inspect/views.js';
import { inlineAssistant, startConversation } from '../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      guest:
        type: text
        mappings:
          - type: from_llm
    responses:
      utter_ask_guest:
        - text: Who is coming?
      utter_booked:
        - text: Booked for {guest}.
  `,
  flows: `
    flows:
      book_table:
        description: Book a table.
        steps:
          - id: ask
            collect: guest
          - id: done
            action: utter_booked
  `,
});

describe('inspector views', () => {
  it('splits a stored conversation into turns and rebuilds each trace from its events', async () => {
    const conversation = await startConversation(assistant, { conversationId: 'v1' });
    await conversation.send('book', [{ command: 'start flow', flow: 'book_table' }]);
    await conversation.send('Ann', [{ command: 'set slot', name: 'guest', value: 'Ann' }]);
    const { events, state } = await conversation.agent.load('v1');
    const view = conversationView({
      empty: conversation.agent.replay('v1', []),
      events,
      state,
      live: new Map(),
    });
    expect(
      view.turns.map((turn) => [turn.userEventIndex === undefined, turn.text, turn.traced]),
    ).to.deep.equal([
      [true, null, 'stored'],
      [false, 'book', 'stored'],
      [false, 'Ann', 'stored'],
    ]);
    const second = view.turns[2]?.trace ?? [];
    const understood = second.find((event) => event.type === 'commands_understood');
    expect(understood?.type === 'commands_understood' && understood.commands).to.deep.equal([
      { command: 'set slot', name: 'guest', value: 'Ann' },
    ]);
    const steps = second.flatMap((event) => (event.type === 'step_visited' ? [event.stepId] : []));
    expect(steps).to.include('done');
    expect(second.at(-1)?.type).to.equal('turn_ended');
    expect(view.eventCount).to.equal(events.length);
  });

  it('replays a window of events with the state after each', async () => {
    const conversation = await startConversation(assistant, { conversationId: 'v2' });
    await conversation.send('book', [{ command: 'start flow', flow: 'book_table' }]);
    const { events } = await conversation.agent.load('v2');
    const all = replaySteps(conversation.agent.replay('v2', []), events, { offset: 0, limit: 1000 });
    expect(all).to.have.length(events.length);
    expect(all.at(-1)?.stack.map((frame) => frame.flow_id)).to.deep.equal([
      'book_table',
      'pattern_collect_information',
    ]);
    const window = replaySteps(conversation.agent.replay('v2', []), events, { offset: 2, limit: 3 });
    expect(window.map((step) => step.index)).to.deep.equal([2, 3, 4]);
    expect(window[0]?.stack).to.deep.equal(all[2]?.stack);
  });

  it('traces an undo from the log it reverts (the slot it resets too), and stops at one without the log', () => {
    const empty = createTrackerState({ senderId: 'v3', initialSlots: { guest: null } });
    const events: Event[] = [
      { event: 'action', timestamp: 1, name: 'action_one' },
      { event: 'slot', timestamp: 1, name: 'guest', value: 'Ann' },
      { event: 'undo', timestamp: 2 },
      { event: 'slot', timestamp: 3, name: 'guest', value: 'Bo' },
    ] as Event[];
    const withLog: TraceEvent[] = [];
    const after = traceEvents(empty, events, (event) => withLog.push(event), events);
    expect(after.slots['guest']).to.equal('Bo');
    expect(
      withLog
        .filter((event) => event.type === 'slot_changed')
        .map((event) => event.type === 'slot_changed' && event.value),
    ).to.deep.equal(['Ann', null, 'Bo']);
    const without: TraceEvent[] = [];
    traceEvents(empty, events, (event) => without.push(event));
    expect(without.filter((event) => event.type === 'slot_changed')).to.have.length(1);
  });
});

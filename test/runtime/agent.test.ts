import { expect } from 'chai';
import type {
  CustomActionCall,
  CustomActionResult,
  CustomActionSource,
} from '../../src/actions/custom/source.js';
import type { Command } from '../../src/core/commands/types.js';
import type { Event } from '../../src/core/events/types.js';
import {
  eventNames,
  flowsStarted,
  inlineAssistant,
  ManualClock,
  slotEvents,
  startConversation,
  utterances,
} from '../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });

function assistantWithSession(sessionConfig: string) {
  return inlineAssistant({
    domain: `
      session_config:
${sessionConfig}
      actions:
        - action_slow
        - action_broken
        - action_missing
      slots:
        language_pref:
          type: text
          mappings:
            - type: controlled
      responses:
        utter_hello:
          - text: Hello!
        utter_after:
          - text: After the action.
    `,
    flows: `
      flows:
        greet:
          description: Say hello.
          steps:
            - action: utter_hello
        slow:
          description: Run a slow action.
          steps:
            - action: action_slow
            - action: utter_after
        broken:
          description: Run an action that fails.
          steps:
            - action: action_broken
            - action: utter_after
        missing:
          description: Run an action nobody implemented.
          steps:
            - action: action_missing
            - action: utter_after
    `,
  });
}

const sessionConfig = (minutes: number, carryOver: boolean) =>
  `        session_expiration_time: ${minutes}\n        carry_over_slots_to_new_session: ${carryOver}`;

const assistant = assistantWithSession(sessionConfig(60, true));

/** A custom action that takes a while (on a timer), so concurrent turns could interleave if nothing stopped them. */
class SlowActions implements CustomActionSource {
  readonly name = 'slow-test-actions';
  has(actionName: string): boolean {
    return actionName === 'action_slow';
  }
  async run(_call: CustomActionCall): Promise<CustomActionResult> {
    await new Promise((resolve) => setTimeout(resolve, 25));
    return { events: [], responses: [{ text: 'slow done' }] };
  }
}

class ThrowingActions implements CustomActionSource {
  readonly name = 'throwing-test-actions';
  has(actionName: string): boolean {
    return actionName === 'action_broken';
  }
  async run(): Promise<CustomActionResult> {
    throw new Error('the action server exploded');
  }
}

/** The turns of a log: each starts at a `user` event. */
function turns(events: readonly Event[]): Event[][] {
  const result: Event[][] = [];
  for (const event of events) {
    if (event.event === 'user') result.push([]);
    result.at(-1)?.push(event);
  }
  return result;
}

describe('Agent', () => {
  describe('sessions', () => {
    it('starts a session before the first message: action_session_start, session_started, action_listen, then the user event', async () => {
      const conversation = await startConversation(assistant);
      const events = await conversation.send('hi', [start('greet')]);
      expect(eventNames(events).slice(0, 4)).to.deep.equal(['action', 'session_started', 'action', 'user']);
      expect(events[0]).to.include({ name: 'action_session_start' });
      expect(events[2]).to.include({ name: 'action_listen' });
      const second = await conversation.send('hi again', [start('greet')]);
      expect(eventNames(second)).to.not.include('session_started');
    });

    it('starts a new session after session_expiration_time minutes and carries the slots over', async () => {
      const clock = new ManualClock();
      const conversation = await startConversation(assistant, { clock });
      await conversation.send('hi', [start('greet')]);
      await conversation.append([{ event: 'slot', name: 'language_pref', value: 'fr' }]);
      clock.advanceMinutes(30);
      expect(eventNames(await conversation.send('still here', [start('greet')]))).to.not.include(
        'session_started',
      );
      clock.advanceMinutes(61);
      const events = await conversation.send('back again', [start('greet')]);
      expect(eventNames(events).slice(0, 2)).to.deep.equal(['action', 'session_started']);
      expect(events[0]).to.include({ name: 'action_session_start' });
      const userIndex = events.findIndex((event) => event.event === 'user');
      expect(slotEvents(events.slice(0, userIndex))).to.deep.equal([{ name: 'language_pref', value: 'fr' }]);
      expect((await conversation.slots())['language_pref']).to.equal('fr');
    });

    it('does not carry slots over when carry_over_slots_to_new_session is false', async () => {
      const clock = new ManualClock();
      const forgetful = assistantWithSession(sessionConfig(10, false));
      const conversation = await startConversation(forgetful, { clock });
      await conversation.send('hi', [start('greet')]);
      await conversation.append([{ event: 'slot', name: 'language_pref', value: 'fr' }]);
      clock.advanceMinutes(11);
      const events = await conversation.send('back again', [start('greet')]);
      expect(eventNames(events)).to.include('session_started');
      expect(slotEvents(events)).to.deep.equal([]);
      expect((await conversation.slots())['language_pref']).to.equal(null);
    });

    it('never expires a session when session_expiration_time is 0', async () => {
      const clock = new ManualClock();
      const endless = assistantWithSession(sessionConfig(0, true));
      const conversation = await startConversation(endless, { clock });
      await conversation.send('hi', [start('greet')]);
      clock.advanceMinutes(60 * 24 * 365);
      expect(eventNames(await conversation.send('hi', [start('greet')]))).to.not.include('session_started');
    });
  });

  it('runs two concurrent messages to one conversation one after the other, never interleaved', async () => {
    const conversation = await startConversation(assistant, { actionSources: [new SlowActions()] });
    const [first, second] = await Promise.all([
      conversation.turn('slow one', [start('slow')]),
      conversation.turn('quick one', [start('greet')]),
    ]);
    const stored = await conversation.events();
    expect(stored).to.deep.equal([...first.events, ...second.events]);
    const userTurns = turns(stored);
    expect(userTurns.map((turn) => (turn[0]?.event === 'user' ? turn[0].text : undefined))).to.deep.equal([
      'slow one',
      'quick one',
    ]);
    for (const turn of userTurns) expect(turn.at(-1)).to.include({ event: 'action', name: 'action_listen' });
    // the second turn ran on the state the first one left: one session, and nothing left to interrupt
    expect(eventNames(stored).filter((name) => name === 'session_started')).to.have.length(1);
    expect(eventNames(second.events)).to.not.include('flow_interrupted');
    expect(utterances(userTurns[0] ?? [])).to.include('utter_after');
    expect(utterances(userTurns[1] ?? [])[0]).to.equal('utter_hello');
  });

  describe('a failing custom action', () => {
    for (const [label, flow, options] of [
      ['a source that throws', 'broken', { actionSources: [new ThrowingActions()] }],
      [
        'a stub with invalid events',
        'broken',
        { stubs: { action_broken: { events: [{ event: 'nonsense' }] } } },
      ],
      ['an action with no implementation', 'missing', {}],
    ] as const) {
      it(`becomes pattern_internal_error with utter_internal_error_rasa (${label}), and the next message works`, async () => {
        const conversation = await startConversation(assistant, options);
        const events = await conversation.send('go', [start(flow)]);
        expect(flowsStarted(events)).to.include('pattern_internal_error');
        expect(utterances(events)).to.include('utter_internal_error_rasa');
        expect(events.at(-1)).to.include({ event: 'action', name: 'action_listen' });
        const next = await conversation.send('hi', [start('greet')]);
        expect(utterances(next)).to.include('utter_hello');
        expect(next.at(-1)).to.include({ event: 'action', name: 'action_listen' });
      });
    }
  });

  it('stores exactly the events it returns, turn after turn', async () => {
    const conversation = await startConversation(assistant);
    const returned: Event[] = [];
    for (const [text, commands] of [
      ['hi', [start('greet')]],
      ['???', undefined],
      ['hello', [start('greet')]],
    ] as const) {
      const result = await conversation.turn(text, commands);
      expect(result.messages).to.deep.equal(result.events.filter((event) => event.event === 'bot'));
      returned.push(...result.events);
    }
    expect(await conversation.events()).to.deep.equal(returned);
  });

  it('returns the state and event count it stored, so no edge needs to read the store after a turn', async () => {
    const conversation = await startConversation(assistant);
    for (const [text, commands] of [
      ['hi', [start('greet')]],
      ['???', undefined],
    ] as const) {
      const result = await conversation.turn(text, commands);
      expect(result.state).to.deep.equal(await conversation.state());
      expect(result.eventCount).to.equal((await conversation.events()).length);
    }
  });

  it('stamps every event with the clock time of its turn', async () => {
    const clock = new ManualClock(1_800_000_000);
    const conversation = await startConversation(assistant, { clock });
    const events = await conversation.send('hi', [start('greet')]);
    expect(new Set(events.map((event) => event.timestamp))).to.deep.equal(new Set([1_800_000_000]));
  });
});

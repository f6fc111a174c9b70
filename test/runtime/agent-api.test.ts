/** The Agent methods the HTTP API stands on: session rule of appended events, logging, parse, predict, replace. */
import { expect } from 'chai';
import { AppError } from '../../src/core/errors.js';
import type { Event } from '../../src/core/events/types.js';
import type { TrackerStore } from '../../src/core/ports.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import {
  eventNames,
  inlineAssistant,
  ManualClock,
  startConversation,
  utterances,
} from '../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    intents: [greet]
    actions: [action_take_back]
    slots:
      name:
        type: text
        mappings: [{type: from_llm}]
    responses:
      utter_hello:
        - text: Hello!
      utter_ask_name:
        - text: Your name?
  `,
  flows: `
    flows:
      greet:
        description: Say hello.
        nlu_trigger: [{intent: greet}]
        steps:
          - action: utter_hello
      ask:
        description: Ask for a name.
        steps:
          - collect: name
      take_back:
        description: Run an action that reverts the user's message.
        steps:
          - action: action_take_back
  `,
});

const SESSION = ['action', 'session_started', 'action'];

/** A store without `remove` (a custom one), which cannot replace a conversation. */
class AppendOnlyStore implements TrackerStore {
  private readonly inner = new MemoryTrackerStore();
  loadRecent = (id: string) => this.inner.loadRecent(id);
  loadAll = (id: string) => this.inner.loadAll(id);
  append: TrackerStore['append'] = (id, events, options) => this.inner.append(id, events, options);
}

describe('Agent: what the HTTP API uses', () => {
  it('appends events from the API with a session only for a new conversation, none when they bring one', async () => {
    const clock = new ManualClock();
    const chat = await startConversation(assistant, { clock });
    await chat.agent.appendEvents(chat.conversationId, [{ event: 'slot', name: 'name', value: 'Ann' }], {
      session: 'if-new',
    });
    expect(eventNames(await chat.events())).to.deep.equal([...SESSION, 'slot']);
    clock.advanceMinutes(24 * 60);
    // an expired session is not renewed by the API (a user message would renew it)
    await chat.agent.appendEvents(chat.conversationId, [{ event: 'restart' }], { session: 'if-new' });
    expect(eventNames(await chat.events())).to.deep.equal([...SESSION, 'slot', 'restart']);
    const other = await chat.agent.appendEvents('other', [{ event: 'session_started' }], {
      session: 'if-new',
    });
    expect(eventNames(other.events)).to.deep.equal(['session_started']);
  });

  it('applies a rewind, from the API or from an action, by re-folding the history it leaves', async () => {
    const chat = await startConversation(assistant, {
      stubs: { action_take_back: { events: [{ event: 'rewind' }] } },
    });
    await chat.send('/SetSlots(name=Ann)');
    await chat.append([
      { event: 'action', name: 'action_listen' },
      { event: 'user', text: 'x', parse_data: { intent: { name: null, confidence: 0 }, entities: [] } },
      { event: 'rewind' },
    ]);
    expect((await chat.state()).latestMessage?.text).to.equal('/SetSlots(name=Ann)');
    const turn = await chat.send('go back', [{ command: 'start flow', flow: 'take_back' }]);
    expect(eventNames(turn)).to.include('rewind');
    expect((await chat.state()).latestMessage?.text).to.equal('/SetSlots(name=Ann)');
  });

  it('logs a user message with its understanding and commands, applying nothing', async () => {
    const chat = await startConversation(assistant);
    const logged = await chat.agent.logMessage({ conversationId: chat.conversationId, text: '/greet' });
    expect(eventNames(logged.events)).to.deep.equal([...SESSION, 'user']);
    const user = logged.events[3] as Extract<Event, { event: 'user' }>;
    expect(user.parse_data.intent.name).to.equal('greet');
    expect(user.parse_data.commands).to.deep.equal([{ command: 'start flow', flow: 'greet' }]);
    expect((await chat.state()).stack).to.deep.equal([]);
    const given = await chat.agent.logMessage({
      conversationId: chat.conversationId,
      text: 'hi',
      parseData: { intent: { name: 'greet', confidence: 0.5 }, entities: [] },
    });
    expect(given.events[0]).to.deep.include({
      text: 'hi',
      parse_data: { text: 'hi', intent: { name: 'greet', confidence: 0.5 }, entities: [] },
    });
  });

  it('parses a text outside any conversation, storing nothing', async () => {
    const chat = await startConversation(assistant);
    const parsed = await chat.agent.parse('/SetSlots(name=Bo)');
    expect(parsed.commands).to.deep.equal([
      { command: 'set slot', name: 'name', value: 'Bo', extractor: 'CommandPayloadReader' },
    ]);
    expect(parsed.text).to.equal('/SetSlots(name=Bo)');
    expect(await chat.agent.load('default'))
      .to.have.property('events')
      .that.deep.equals([]);
  });

  it('predicts the next action without running it', async () => {
    const chat = await startConversation(assistant);
    await chat.send('hi', [{ command: 'start flow', flow: 'greet' }]);
    const before = await chat.events();
    expect(await chat.agent.predict(chat.conversationId)).to.deep.equal({
      action: 'action_listen',
      policy: 'FlowPolicy',
      confidence: 1,
    });
    await chat.append([{ event: 'followup', name: 'utter_hello' }]);
    expect((await chat.agent.predict(chat.conversationId)).action).to.equal('utter_hello');
    expect((await chat.events()).length).to.equal(before.length + 1);
  });

  it('replaces a conversation with the events given (stamped by the clock), or deletes it with none', async () => {
    const clock = new ManualClock(5000);
    const chat = await startConversation(assistant, { clock });
    await chat.send('hi', [{ command: 'start flow', flow: 'ask' }]);
    const replaced = await chat.agent.replaceEvents(chat.conversationId, [
      { event: 'slot', name: 'name', value: 'Cy' },
      { event: 'bot', text: 'old', data: {}, timestamp: 10 },
    ]);
    expect(replaced.events.map((event) => event.timestamp)).to.deep.equal([5000, 10]);
    expect(replaced.state.slots['name']).to.equal('Cy');
    expect(await chat.events()).to.deep.equal(replaced.events);
    // the next turn starts from the replaced history (and its snapshot)
    expect(utterances(await chat.send('hi', [{ command: 'start flow', flow: 'greet' }]))).to.include(
      'utter_hello',
    );
    await chat.agent.replaceEvents(chat.conversationId, []);
    expect(await chat.events()).to.deep.equal([]);
  });

  it('refuses to replace on a store that cannot remove conversations', async () => {
    const chat = await startConversation(assistant, { trackerStore: new AppendOnlyStore() });
    const error = await chat.agent.replaceEvents(chat.conversationId, []).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).code).to.equal('STORE_UNSUPPORTED');
  });

  it('shows an unknown conversation with the session a first message would start, without storing it', async () => {
    const chat = await startConversation(assistant);
    const shown = await chat.agent.loadWithSession('nobody');
    expect(eventNames(shown.events)).to.deep.equal(SESSION);
    expect(shown.state.eventCount).to.equal(3);
    expect(await chat.agent.load('nobody'))
      .to.have.property('events')
      .that.deep.equals([]);
    expect(chat.agent.replay('nobody', shown.events.slice(0, 1)).latestActionName).to.equal(
      'action_session_start',
    );
  });

  it('begins a conversation whose id was made up for the message without reading the store; one that exists conflicts', async () => {
    let loads = 0;
    const inner = new MemoryTrackerStore();
    const counting: TrackerStore = {
      loadRecent: (id) => {
        loads += 1;
        return inner.loadRecent(id);
      },
      loadAll: (id) => inner.loadAll(id),
      append: (id, events, options) => inner.append(id, events, options),
    };
    const chat = await startConversation(assistant, { trackerStore: counting });
    const first = await chat.agent.handleMessage({ conversationId: 'made-up', text: '/greet', unseen: true });
    expect(loads, 'reads of the store').to.equal(0);
    expect(utterances(first.events)).to.include('utter_hello');
    expect(eventNames(await inner.loadAll('made-up')).slice(0, 3)).to.deep.equal(SESSION);
    const next = await chat.agent.handleMessage({ conversationId: 'made-up', text: '/greet' });
    expect(loads).to.equal(1);
    expect(next.eventCount).to.be.greaterThan(first.eventCount);
    const stored = (await inner.loadAll('made-up')).length;
    try {
      await chat.agent.handleMessage({ conversationId: 'made-up', text: '/greet', unseen: true });
      expect.fail('an unseen message for a stored conversation was stored');
    } catch (error) {
      expect((error as AppError).code).to.equal('TRACKER_CONFLICT');
    }
    expect(await inner.loadAll('made-up')).to.have.length(stored);
  });
});

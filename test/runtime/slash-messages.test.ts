import { expect } from 'chai';
import type { CommandGenerator } from '../../src/core/ports.js';
import type { Event } from '../../src/core/events/types.js';
import { inlineAssistant, slotEvents, startConversation } from '../support/inline-assistant.js';

// Rasa's MessageProcessor.parse_message: a message that starts with a slash but yields no intent and no
// commands is stripped of its leading slashes and white space (_sanitize_message, `^[/\s]+`, then
// strip()) before NLU or the LLM reads it, and the user event stores that stripped text.
const assistant = inlineAssistant({
  domain: `
    slots:
      city:
        type: text
    responses:
      utter_ask_city:
        - text: Which city?
  `,
  flows: `
    flows:
      weather:
        description: Tell the weather in a city.
        steps:
          - collect: city
  `,
});

function recordingGenerator(seen: string[]): CommandGenerator {
  return {
    understand: async ({ text }) => {
      seen.push(text);
      return {
        commands: [{ command: 'cannot handle' }],
        parseData: { text, intent: { name: null, confidence: 0 }, entities: [] },
      };
    },
  };
}

function userEvent(events: readonly Event[]) {
  const user = events.find((event) => event.event === 'user');
  if (user?.event !== 'user') throw new Error('no user event');
  return user;
}

describe('slash messages that are no payload', () => {
  it('are understood and stored without their leading slashes and white space', async () => {
    const conversation = await startConversation(assistant);
    const seen: string[] = [];
    const cases: [string, string][] = [
      ['/SetSlots(city=)', 'SetSlots(city=)'], // no slot=value pair
      ['/SetSlots(country=Peru)', 'SetSlots(country=Peru)'], // a slot the domain lacks
      [' // / what is this? ', 'what is this?'],
    ];
    for (const [sent, stored] of cases) {
      const { events } = await conversation.agent.handleMessage({
        conversationId: conversation.conversationId,
        text: sent,
        commandGenerator: recordingGenerator(seen),
      });
      expect(userEvent(events).text, sent).to.equal(stored);
      expect(userEvent(events).parse_data.text, sent).to.equal(stored);
    }
    expect(seen).to.deep.equal(cases.map(([, stored]) => stored));
  });

  it('keeps a payload Rasa reads, and other text, exactly as sent', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('weather', [{ command: 'start flow', flow: 'weather' }]);
    const events = await conversation.send('/SetSlots(city=Lima)');
    expect(userEvent(events).text).to.equal('/SetSlots(city=Lima)');
    expect(slotEvents(events)[0]).to.deep.equal({ name: 'city', value: 'Lima' });
    const seen: string[] = [];
    const other = await conversation.agent.handleMessage({
      conversationId: conversation.conversationId,
      text: '  hello /there ',
      commandGenerator: recordingGenerator(seen),
    });
    expect(userEvent(other.events).text).to.equal('  hello /there ');
    expect(seen).to.deep.equal(['  hello /there ']);
  });

  it('are stored as sent when the commands come with the message (no understanding runs)', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('/SetSlots(city=)', [{ command: 'start flow', flow: 'weather' }]);
    expect(userEvent(events).text).to.equal('/SetSlots(city=)');
  });

  it('are logged and parsed stripped through the HTTP API paths too', async () => {
    const conversation = await startConversation(assistant);
    expect((await conversation.agent.parse('/SetSlots(city=)')).text).to.equal('SetSlots(city=)');
    const { events } = await conversation.agent.logMessage({
      conversationId: conversation.conversationId,
      text: '/ hi',
    });
    expect(userEvent(events).text).to.equal('hi');
  });
});

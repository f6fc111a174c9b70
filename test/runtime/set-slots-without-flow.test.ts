import { expect } from 'chai';
import { inlineAssistant, slotEvents, startConversation } from '../support/inline-assistant.js';
import { recordingLogger } from '../support/recording-logger.js';

// Rasa's SetSlotCommand (rasa/dialogue_understanding/commands/set_slot_command.py) keeps a slot from an
// LLM, NLU or /SetSlots payload only when the active flow collects it, a flow started by the same
// message collects it, a default pattern collects it, or it is one of Rasa's built-in slots.
const assistant = inlineAssistant({
  domain: `
    slots:
      city:
        type: text
      note:
        type: text
        mappings:
          - type: controlled
    responses:
      utter_ask_city:
        - text: Which city?
      utter_city:
        - text: "Weather for {city}."
  `,
  flows: `
    flows:
      weather:
        description: Tell the weather in a city.
        steps:
          - collect: city
          - action: utter_city
  `,
});

describe('/SetSlots with no active flow', () => {
  it('sets a slot a default pattern collects without ask_before_filling (interrupted_flow_to_continue)', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('/SetSlots(interrupted_flow_to_continue=weather)');
    expect(slotEvents(events)).to.deep.include({ name: 'interrupted_flow_to_continue', value: 'weather' });
    expect((await conversation.slots())['interrupted_flow_to_continue']).to.equal('weather');
  });

  it('sets a slot of a flow the same message starts', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('weather in Porto', [
      { command: 'start flow', flow: 'weather' },
      { command: 'set slot', name: 'city', value: 'Porto', extractor: 'CommandPayloadReader' },
    ]);
    expect(slotEvents(events)).to.deep.include({ name: 'city', value: 'Porto' });
  });

  it('drops a slot no active, started or pattern flow asks for, as Rasa does, and logs the silent turn', async () => {
    const logger = recordingLogger();
    const conversation = await startConversation(assistant, { logger });
    const events = await conversation.send('/SetSlots(note=hello, city=Porto)');
    expect(slotEvents(events)).to.deep.equal([]);
    expect(events.filter((event) => event.event === 'bot')).to.deep.equal([]);
    expect(logger.warnings).to.have.length(1);
    expect(logger.warnings[0]).to.match(/no bot message and no event/);
    expect(logger.warningFields[0]).to.deep.include({ conversationId: conversation.conversationId });
    expect(logger.warningFields[0]?.['commands']).to.deep.equal([
      { command: 'set slot', slot: 'note' },
      { command: 'set slot', slot: 'city' },
    ]);
  });

  it('logs nothing for a turn that says something or changes state', async () => {
    const logger = recordingLogger();
    const conversation = await startConversation(assistant, { logger });
    await conversation.send('weather', [{ command: 'start flow', flow: 'weather' }]);
    await conversation.send('/SetSlots(interrupted_flow_to_continue=weather)');
    expect(logger.warnings).to.deep.equal([]);
  });
});

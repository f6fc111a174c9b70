import { expect } from 'chai';
import type { Event } from '../../../src/core/events/types.js';
import { inlineAssistant, slotValues, startConversation } from '../../support/inline-assistant.js';

// Rasa's domain always holds its built-in slots (`language`, `requested_slot`, ...): a project uses them
// without declaring them, and an unset one reads as None in conditions and responses.
const assistant = inlineAssistant({
  domain: `
    intents:
      - speak_french
    responses:
      utter_unset:
        - text: "Language {language}, asking for {requested_slot}."
      utter_french:
        - text: "Now speaking {language}."
      utter_not_french:
        - text: Still the default language.
  `,
  flows: `
    flows:
      speak_french:
        description: switch to French
        persisted_slots: [language]
        nlu_trigger:
          - intent: speak_french
        steps:
          - noop: true
            next:
              - if: slots.language is null
                then:
                  - action: utter_unset
                    next: switch
              - else: switch
          - id: switch
            set_slots:
              - language: fr
            next:
              - if: slots.language = "fr"
                then:
                  - action: utter_french
                    next: END
              - else:
                  - action: utter_not_french
                    next: END
  `,
});

function texts(events: readonly Event[]): (string | null)[] {
  return events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
}

describe("Rasa's built-in slots at run time", () => {
  it('read as None while unset, and are set by set_slots steps, read back and persisted', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('/speak_french');
    expect(texts(events).slice(0, 2)).to.deep.equal(['Language None, asking for None.', 'Now speaking fr.']);
    expect(slotValues(events, 'language')).to.deep.equal(['fr']);
  });
});

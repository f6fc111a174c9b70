import { expect } from 'chai';
import type { Event } from '../../../src/core/events/types.js';
import { flowsStarted, inlineAssistant, startConversation } from '../../support/inline-assistant.js';

// Rasa documents `{{`/`}}` as the way to write JSON in a response (str.format would read `{` as a
// placeholder): the button is sent with single braces, and clicking it is an intent with entities.
const assistant = inlineAssistant({
  domain: `
    intents:
      - offer
      - inform
      - links
    entities:
      - insurance
    slots:
      insurance:
        type: text
        initial_value: motor
    responses:
      utter_offer:
        - text: Which insurance?
          buttons:
            - title: Motor
              payload: '/inform{{"insurance":"motor"}}'
      utter_links:
        - text: Read more
          buttons:
            - title: Terms
              payload: /offer
              type: web_url
              url: "https://example.com/{insurance}"
      utter_insured:
        - text: Insured.
  `,
  flows: `
    flows:
      offer_insurance:
        description: offer an insurance
        nlu_trigger:
          - intent: offer
        steps:
          - action: utter_offer
      show_links:
        description: show the links
        nlu_trigger:
          - intent: links
        steps:
          - action: utter_links
      buy_insurance:
        description: buy the insurance picked
        nlu_trigger:
          - intent: inform
        steps:
          - action: utter_insured
  `,
});

function buttonsOf(events: readonly Event[]): unknown[] {
  return events.flatMap((event) => (event.event === 'bot' ? (event.data?.buttons ?? []) : []));
}

describe('a button payload written with {{ }} in the domain', () => {
  it('is sent with single braces and understood as the intent with its entities when clicked', async () => {
    const conversation = await startConversation(assistant);
    const offered = await conversation.send('/offer');
    expect(buttonsOf(offered)).to.deep.equal([{ title: 'Motor', payload: '/inform{"insurance":"motor"}' }]);

    const clicked = await conversation.send('/inform{"insurance":"motor"}');
    const user = clicked.find((event) => event.event === 'user');
    expect(user?.event === 'user' ? user.parse_data.intent.name : undefined).to.equal('inform');
    expect(user?.event === 'user' ? user.parse_data.entities : undefined).to.deep.include({
      entity: 'insurance',
      value: 'motor',
    });
    expect(flowsStarted(clicked)[0]).to.equal('buy_insurance');
  });
});

describe('a button with keys besides title and payload', () => {
  it('is sent with them, interpolated, as Rasa sends the button dict whole', async () => {
    const conversation = await startConversation(assistant);
    const shown = await conversation.send('/links');
    expect(buttonsOf(shown)).to.deep.equal([
      { title: 'Terms', payload: '/offer', type: 'web_url', url: 'https://example.com/motor' },
    ]);
  });
});

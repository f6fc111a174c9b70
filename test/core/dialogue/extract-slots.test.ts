import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import { nluSlotEvents } from '../../../src/core/dialogue/extract-slots.js';
import type { EntityValue, ParseData } from '../../../src/core/events/types.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

/** A coexistence assistant whose NLU side fills its own slots from their mappings. */
const DOMAIN = `
  intents: [inform, affirm, deny, chitchat, book]
  entities: [city, size]
  slots:
    route_session_to_calm:
      type: bool
      influence_conversation: false
    departure:
      type: text
      mappings:
        - type: from_entity
          entity: city
          role: from
    destination:
      type: text
      mappings:
        - type: from_entity
          entity: city
          role: to
    first_leg:
      type: text
      mappings:
        - type: from_entity
          entity: city
          group: '1'
    size:
      type: text
      mappings:
        - type: from_entity
          entity: size
          intent: [inform, book]
          not_intent: [book]
    agreed:
      type: bool
      mappings:
        - type: from_intent
          intent: [affirm]
          value: true
        - type: from_intent
          intent: [deny]
          value: false
    note:
      type: text
      mappings:
        - type: from_text
          not_intent: [chitchat, affirm, deny, book]
    form_answer:
      type: text
      mappings:
        - type: from_text
          intent: [book]
          conditions:
            - active_loop: booking_form
            - active_loop: rebooking_form
    flow_answer:
      type: text
      mappings:
        - type: from_text
          intent: [book]
          conditions:
            - active_flow: book_table
    amount:
      type: float
      mappings:
        - type: from_entity
          entity: size
          intent: [book]
    shared_city:
      type: text
      shared_for_coexistence: true
      mappings:
        - type: from_entity
          entity: city
    table_time:
      type: text
      mappings:
        - type: from_entity
          entity: city
          intent: [book]
  responses:
    utter_ask_amount:
      - text: How much?
    utter_ask_shared_city:
      - text: Which city?
    utter_ask_flow_answer:
      - text: Yes?
`;

const FLOWS = `
  flows:
    book_table:
      description: Book a table.
      steps:
        - collect: amount
        - collect: shared_city
        - set_slots:
            - table_time: "8pm"
`;

let assistant: Assistant;

function parse(intent: string | null, entities: readonly EntityValue[] = [], text = 'hi'): ParseData {
  return {
    text,
    intent: { name: intent, confidence: 1 },
    entities: entities.map((entity) => ({ start: 0, end: 1, ...entity })),
  };
}

/** The slots the NLU side fills from the message, as name=value. */
function filled(
  parseData: ParseData,
  options: { activeLoop?: string; slots?: Record<string, unknown> } = {},
): string[] {
  const events = nluSlotEvents(
    parseData,
    { domain: assistant.domain, flows: assistant.flows, activeLoop: options.activeLoop ?? null },
    options.slots ?? {},
  );
  return events.map((event) =>
    event.event === 'slot' ? `${event.name}=${JSON.stringify(event.value)}` : event.event,
  );
}

describe('action_extract_slots on the NLU side of a coexistence assistant', () => {
  before(() => {
    assistant = inlineAssistant({ domain: DOMAIN, flows: FLOWS });
  });

  it('fills a from_entity slot only from an entity of its role or group, marked as filled by NLU', () => {
    const trip = parse('inform', [
      { entity: 'city', value: 'Berlin', role: 'from' },
      { entity: 'city', value: 'Rome', role: 'to' },
    ]);
    expect(filled(trip)).to.deep.equal([
      'departure="Berlin"',
      'destination="Rome"',
      'note="hi"',
      'shared_city="Berlin"',
    ]);
    const grouped = parse('inform', [{ entity: 'city', value: 'Oslo', group: '1' }]);
    expect(filled(grouped)).to.deep.equal(['first_leg="Oslo"', 'note="hi"', 'shared_city="Oslo"']);
    const [event] = nluSlotEvents(
      trip,
      { domain: assistant.domain, flows: assistant.flows, activeLoop: null },
      {},
    );
    expect(event).to.deep.include({ metadata: { filled_by: 'NLU' } });
  });

  it('fills a from_intent slot with the mapping’s value for its intent', () => {
    expect(filled(parse('affirm'))).to.deep.equal(['agreed=true']);
    expect(filled(parse('deny'))).to.deep.equal(['agreed=false']);
    expect(filled(parse(null, [], 'mumble'))).to.deep.equal(['note="mumble"']);
  });

  it('fills a from_text slot with the message text, except for its not_intent intents', () => {
    expect(filled(parse('inform', [], 'near the station'))).to.deep.equal(['note="near the station"']);
    expect(filled(parse('chitchat', [], 'how are you'))).to.deep.equal([]);
    const { text: _text, ...withoutText } = parse('inform');
    expect(filled(withoutText, { slots: { note: null } })).to.deep.equal([]);
  });

  it('applies a mapping’s intent and not_intent filters to entities', () => {
    expect(filled(parse('inform', [{ entity: 'size', value: 'large' }]))).to.include('size="large"');
    expect(filled(parse('book', [{ entity: 'size', value: 'large' }]))).to.not.include('size="large"');
    expect(filled(parse('affirm', [{ entity: 'size', value: 'large' }]))).to.not.include('size="large"');
  });

  it('fills a slot whose mapping names an active loop only while that loop is active; active_flow mappings are CALM’s', () => {
    expect(filled(parse('book', [], 'at eight'), { activeLoop: 'booking_form' })).to.deep.equal([
      'form_answer="at eight"',
    ]);
    expect(filled(parse('book', [], 'at nine'), { activeLoop: 'rebooking_form' })).to.deep.equal([
      'form_answer="at nine"',
    ]);
    expect(filled(parse('book', [], 'at eight'), { activeLoop: 'other_form' })).to.deep.equal([]);
    expect(filled(parse('book', [], 'at eight'))).to.deep.equal([]);
  });

  it('leaves the slots flows collect or set to CALM, unless they are shared_for_coexistence', () => {
    const events = filled(
      parse('book', [
        { entity: 'size', value: '3' },
        { entity: 'city', value: 'Paris' },
      ]),
    );
    expect(events).to.deep.equal(['shared_city="Paris"']);
  });

  it('sets nothing when the slot already has that value', () => {
    expect(filled(parse('affirm'), { slots: { agreed: true } })).to.deep.equal([]);
    expect(filled(parse('affirm'), { slots: { agreed: false } })).to.deep.equal(['agreed=true']);
  });
});

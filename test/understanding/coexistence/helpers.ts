/** A small travel assistant for the coexistence tests, and a scripted NLU classifier for it. */
import type { Assistant } from '../../../src/core/assistant.js';
import type { NluInterpreter } from '../../../src/understanding/nlu/nlu-command-generator.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

export const TRAVEL_DOMAIN = `
  intents: [greet, book_flight, check_status, inform, affirm, goodbye]
  entities: [city]
  slots:
    route_session_to_calm:
      type: bool
      influence_conversation: false
    destination:
      type: text
      mappings:
        - type: from_entity
          entity: city
        - type: from_llm
    travel_date:
      type: text
      mappings:
        - type: from_llm
    booking_ref:
      type: text
      mappings:
        - type: from_llm
  responses:
    utter_ask_destination:
      - text: Where are you flying to?
    utter_ask_travel_date:
      - text: When?
    utter_ask_booking_ref:
      - text: Your booking reference?
    utter_booked:
      - text: Booked a flight to {destination}.
    utter_status:
      - text: Your flight is on time.
`;

export const TRAVEL_FLOWS = `
  flows:
    book_flight:
      description: Book a flight to a city.
      nlu_trigger:
        - intent:
            name: book_flight
            confidence_threshold: 0.7
      steps:
        - collect: destination
        - collect: travel_date
        - action: utter_booked
    check_status:
      description: Check the status of a booked flight.
      steps:
        - collect: booking_ref
        - action: utter_status
`;

export function travelConfig(generatorOptions = '', router = ''): string {
  return `
    recipe: default.v1
    language: en
    assistant_id: hybrid-test
    pipeline:
      ${router}
      - name: NLUCommandAdapter
      - name: CompactLLMCommandGenerator
        llm:
          model_group: fake
        ${generatorOptions}
    policies:
      - name: FlowPolicy
  `;
}

export function travelAssistant(config = travelConfig()): Assistant {
  return inlineAssistant({ domain: TRAVEL_DOMAIN, flows: TRAVEL_FLOWS, config });
}

export interface Scripted {
  readonly intent: string | null;
  readonly confidence?: number;
  readonly entities?: readonly { entity: string; value: string }[];
}

/** A classifier whose predictions a test writes down per message (unknown messages: no intent). */
export function scriptedInterpreter(script: Readonly<Record<string, Scripted>>): NluInterpreter {
  return {
    interpret(text) {
      const entry = script[text] ?? { intent: null, confidence: 0.1 };
      const confidence = entry.confidence ?? 0.95;
      return {
        prediction: {
          intent: entry.intent,
          confidence,
          ranking: entry.intent ? [{ intent: entry.intent, confidence }] : [],
        },
        entities: (entry.entities ?? []).map((entity) => ({
          ...entity,
          start: 0,
          end: 0,
          confidence: 1,
          extractor: 'RegexEntityExtractor' as const,
        })),
      };
    },
  };
}

/**
 * A small assistant with a knowledge base: the documents of a (made-up) bicycle shop, three of plain
 * text and one of question-and-answer pairs, and pattern_search overridden with action_trigger_search
 * as Rasa projects with an EnterpriseSearchPolicy do.
 */
import { dedent } from './inline-assistant.js';

export const SHIPPING_DOC = dedent(`
  Shipping

  Every order leaves our workshop in Ghent within two working days. Standard delivery inside Belgium
  takes three to five working days and costs 6 euros; orders above 150 euros ship for free.

  Complete bicycles travel in a reinforced carton with the handlebar turned sideways and the pedals
  removed. A pedal spanner is included in the box so that you can fit them yourself.

  We ship to the Netherlands, Luxembourg, France and Germany. International delivery takes five to eight
  working days and costs 19 euros per parcel. We do not ship outside the European Union.
`);

export const RETURNS_DOC = dedent(`
  Returns and refunds

  You may return any item within 30 days of delivery for a full refund, provided it is unused and in its
  original packaging. Bicycles that have been ridden outdoors cannot be returned, but they remain covered
  by the warranty.

  To start a return, email returns@spokeandchain.example with your order number. We send a prepaid label
  for parcels inside Belgium; from abroad the return postage is yours to pay.

  Refunds are paid to the original payment method within five working days after the parcel reaches our
  workshop.
`);

export const WARRANTY_DOC = dedent(`
  Warranty

  Our steel frames carry a lifetime warranty against cracks and broken welds for the first owner. Forks,
  wheels and components are guaranteed for two years from the date of purchase.

  The warranty does not cover wear parts such as tyres, brake pads, chains and cassettes, nor damage from
  crashes, racing or neglected maintenance. Keep your receipt: we ask for it with every claim.
`);

export const STORE_FAQ = dedent(`
  Q: When is the shop open?
  A: The shop in Ghent is open Tuesday to Saturday from 10:00 to 18:00. It is closed on Sundays and
  Mondays.

  Q: Can I test ride a bicycle before buying it?
  A: Yes, every bicycle on display can be test ridden for half an hour; bring an identity card as a
  deposit.

  Q: Do you repair bicycles bought elsewhere?
  A: Yes, the workshop services every brand. Book a slot by phone, as repairs are planned a week ahead.
`);

export const KNOWLEDGE_DOCS: Readonly<Record<string, string>> = {
  'docs/shipping.txt': SHIPPING_DOC,
  'docs/returns.txt': RETURNS_DOC,
  'docs/warranty.txt': WARRANTY_DOC,
  'docs/faq/store.txt': STORE_FAQ,
};

export const KNOWLEDGE_DOMAIN = `
  version: "3.1"
  responses:
    utter_greet:
      - text: "Hello! Ask me anything about Spoke & Chain."
`;

export const KNOWLEDGE_FLOWS = `
  flows:
    greet:
      description: The user says hello.
      steps:
        - action: utter_greet
    pattern_search:
      description: Answers questions from the knowledge base.
      name: pattern search
      steps:
        - action: action_trigger_search
`;

/** config.yml with an EnterpriseSearchPolicy; `policyExtra` is YAML indented under the policy. */
export function knowledgeConfig(policyExtra = '', pipeline = '[]'): string {
  const extra = policyExtra
    ? `\n${dedent(policyExtra)
        .split('\n')
        .map((line) => (line ? `    ${line}` : line))
        .join('\n')}`
    : '';
  return (
    `recipe: default.v1\nlanguage: en\nassistant_id: knowledge-test\npipeline: ${pipeline}\n` +
    `policies:\n  - name: FlowPolicy\n  - name: EnterpriseSearchPolicy${extra}\n`
  );
}

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import { inlineAssistant, startConversation, utterances } from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      amount:
        type: float
      country:
        type: text
    responses:
      utter_ask_amount:
        - text: How much?
      utter_large:
        - text: That is a large amount.
      utter_positive:
        - text: That is a positive amount.
      utter_other:
        - text: Some amount.
      utter_abroad:
        - text: Abroad.
      utter_done:
        - text: Done.
  `,
  flows: `
    flows:
      classify:
        description: Classify an amount.
        steps:
          - collect: amount
            next:
              - if: slots.amount > 1000
                then:
                  - action: utter_large
                    next: finish
              - if: slots.amount > 0
                then:
                  - action: utter_positive
                    next: finish
              - else:
                  - action: utter_other
                    next: finish
          - id: finish
            action: utter_done
      compare_text:
        description: Compare an amount with text.
        steps:
          - collect: amount
            next:
              - if: slots.amount > "abc"
                then:
                  - action: utter_large
                    next: END
              - if: slots.country is "FR" and slots.amount > 0
                then:
                  - action: utter_abroad
                    next: END
              - else:
                  - action: utter_other
                    next: END
  `,
});

async function classify(amount: number, flow = 'classify'): Promise<string[]> {
  const conversation = await startConversation(assistant);
  await conversation.send('go', [{ command: 'start flow', flow } satisfies Command]);
  return utterances(
    await conversation.send(String(amount), [{ command: 'set slot', name: 'amount', value: amount }]),
  );
}

describe('branches (next with if/else)', () => {
  it('takes the branch of the first true condition, even when a later one is true too', async () => {
    expect((await classify(5000)).slice(0, 2)).to.deep.equal(['utter_large', 'utter_done']);
  });

  it('tries the conditions in order', async () => {
    expect((await classify(10)).slice(0, 2)).to.deep.equal(['utter_positive', 'utter_done']);
  });

  it('takes the else branch when no condition holds', async () => {
    expect((await classify(-3)).slice(0, 2)).to.deep.equal(['utter_other', 'utter_done']);
  });

  it('treats a condition that fails to evaluate (number compared with text) as false', async () => {
    expect((await classify(5, 'compare_text'))[0]).to.equal('utter_other');
  });
});

/*
 * Engine behaviour found missing by the unit tests and fixed since; kept as regression tests.
 *
 * Rasa's reorder_commands: with no active user flow, the (single) StartFlow is moved to the END of the
 * list, so after the list is reversed it is executed FIRST and lands at the BOTTOM of the stack; a
 * free-form answer (knowledge, chitchat) of the same message then sits on top and is answered first
 * (spec §4.3: "the StartFlow ... is moved so that it runs first; then the list is reversed").
 * Parley's executionOrder (src/core/commands/apply-commands.ts) moves it to the FRONT instead, so after
 * the reversal it runs LAST: the flow lands on top, and the knowledge answer is left at the bottom of
 * the stack, only answered after the whole flow has finished.
 */
import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import { inlineAssistant, startConversation, utterances } from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      recipient:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
  `,
});

describe('command execution order with no active flow', () => {
  it('answers a knowledge question of the same message before the flow it starts asks its question', async () => {
    const conversation = await startConversation(assistant);
    const commands: Command[] = [{ command: 'knowledge' }, { command: 'start flow', flow: 'transfer_money' }];
    const events = await conversation.send('what are the fees? I want to send money', commands);
    // expected (Rasa): ['utter_no_knowledge_base', 'utter_ask_recipient']
    // actual (Parley): ['utter_ask_recipient'], with pattern_search left at START under transfer_money
    expect(utterances(events)).to.deep.equal(['utter_no_knowledge_base', 'utter_ask_recipient']);
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
  });
});

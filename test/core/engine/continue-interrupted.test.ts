/*
 * Engine behaviour found missing by the unit tests and fixed since; kept as regression tests.
 *
 * Spec §2.7/§4.2: StartFlow(A) while pattern_continue_interrupted is active for A is kept by cleanup and
 * "the continue pattern frames are just removed = 'yes, continue A'". Parley's start-flow command
 * (withoutContinueInterrupted in src/core/commands/start-flow.ts) only pops the continue pattern when it
 * is the very top frame, but while the question is pending the top frame is the
 * pattern_collect_information that asks continue_interrupted_flow_confirmation. The command changes
 * nothing and the confirmation question is asked again.
 */
import { expect } from 'chai';
import type { Conversation } from '../../support/inline-assistant.js';
import { inlineAssistant, startConversation, utterances } from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      recipient:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_hello:
        - text: Hello!
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

async function askedToContinue(): Promise<Conversation> {
  const conversation = await startConversation(assistant);
  await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
  await conversation.send('hello', [{ command: 'start flow', flow: 'greet' }]);
  return conversation;
}

describe('pattern_continue_interrupted', () => {
  it('treats StartFlow of the interrupted flow as "yes, continue it" while the question is pending', async () => {
    const conversation = await askedToContinue();
    const events = await conversation.send('back to the money', [
      { command: 'start flow', flow: 'transfer_money' },
    ]);
    // expected: the continue pattern is removed and transfer_money asks its question
    // actual: ['utter_ask_continue_interrupted_flow_confirmation'] (the command had no effect)
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
  });
});

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  flowsStarted,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

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

const skip: Command = { command: 'skip question' };

describe('SkipQuestion command', () => {
  it('explains that the question needs an answer, then asks it again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('skip that', [skip]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_skip_question']);
    expect(utterances(events)).to.deep.equal(['utter_skip_question_answer', 'utter_ask_recipient']);
    expect((await conversation.slots())['recipient']).to.equal(null);
  });

  it('does nothing without an active flow', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('skip that', [skip]);
    expect(flowsStarted(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal([]);
  });
});

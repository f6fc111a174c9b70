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
      utter_welcome:
        - text: Welcome to the bank.
      utter_ask_recipient:
        - text: To whom?
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - action: utter_welcome
          - collect: recipient
  `,
});

const repeat: Command = { command: 'repeat' };

describe('RepeatBotMessages command', () => {
  it("sends the previous turn's bot messages again", async () => {
    const conversation = await startConversation(assistant);
    const first = await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    expect(utterances(first)).to.deep.equal(['utter_welcome', 'utter_ask_recipient']);
    const events = await conversation.send('say that again', [repeat]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_repeat_bot_messages']);
    expect(utterances(events).slice(0, 2)).to.deep.equal(['utter_welcome', 'utter_ask_recipient']);
    const texts = (turn: typeof events) =>
      turn.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
    expect(texts(events).slice(0, 2)).to.deep.equal(texts(first));
  });

  it('repeats nothing when the assistant has not said anything yet', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('say that again', [repeat]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_repeat_bot_messages']);
    expect(utterances(events)).to.deep.equal([]);
  });
});

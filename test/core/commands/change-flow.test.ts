import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  eventNames,
  flowEvents,
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

const changeFlow: Command = { command: 'change flow' };

describe('ChangeFlow command', () => {
  it('has no effect of its own when nothing is active: the assistant just listens', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('something else', [changeFlow]);
    const turn = events.slice(events.findIndex((event) => event.event === 'user'));
    expect(eventNames(turn)).to.deep.equal(['user', 'action']);
    expect(await conversation.stack()).to.deep.equal([]);
  });

  it('has no effect inside a flow: the stack stays and the question is asked again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const before = await conversation.stack();
    const events = await conversation.send('something else', [changeFlow]);
    expect(flowEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    expect(await conversation.stack()).to.deep.equal(before);
  });

  it('leaves the work to a StartFlow in the same turn', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('say hello instead', [
      changeFlow,
      { command: 'start flow', flow: 'greet' },
    ]);
    expect(flowsStarted(events)[0]).to.equal('greet');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });
});

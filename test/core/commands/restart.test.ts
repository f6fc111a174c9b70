import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  actionNames,
  eventNames,
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
      amount:
        type: float
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_ask_amount:
        - text: How much?
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
          - collect: amount
  `,
});

const restart: Command = { command: 'restart' };

describe('Restart command', () => {
  it('runs pattern_restart, whose action_restart wipes the stack and the slots', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    await conversation.send('Ann', [{ command: 'set slot', name: 'recipient', value: 'Ann' }]);
    const events = await conversation.send('start over', [restart]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_restart']);
    expect(actionNames(events)).to.include('action_restart');
    expect(eventNames(events)).to.include('restart');
    expect(await conversation.stack()).to.deep.equal([]);
    expect((await conversation.slots())['recipient']).to.equal(null);
  });

  it('leaves a clean conversation: the flow starts again from its first question', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    await conversation.send('Ann', [{ command: 'set slot', name: 'recipient', value: 'Ann' }]);
    await conversation.send('start over', [restart]);
    const events = await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    expect(flowsStarted(events)[0]).to.equal('transfer_money');
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });

  it('runs action_session_start as the follow-up of the restart, opening a new session', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('start over', [restart]);
    const afterRestart = events.slice(events.findIndex((event) => event.event === 'restart'));
    expect(actionNames(afterRestart)[0]).to.equal('action_session_start');
    expect(eventNames(afterRestart)).to.include('session_started');
    expect(actionNames(afterRestart).at(-1)).to.equal('action_listen');
    expect((await conversation.state()).followupAction).to.equal(null);
  });

  it('is what the /restart intent triggers', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('/restart');
    expect(flowsStarted(events)).to.deep.equal(['pattern_restart']);
    expect(eventNames(events)).to.include('restart');
    expect(await conversation.stack()).to.deep.equal([]);
  });
});

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  actionNames,
  flowsStarted,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const domain = `
  slots:
    recipient:
      type: text
  responses:
    utter_ask_recipient:
      - text: To whom?
    utter_small_talk:
      - text: Nice weather today.
`;
const flows = `
  flows:
    transfer_money:
      description: Send money to someone.
      steps:
        - collect: recipient
`;

const flowsWithSmallTalk = `
  flows:
    transfer_money:
      description: Send money to someone.
      steps:
        - collect: recipient
    pattern_chitchat:
      description: Small talk.
      steps:
        - action: utter_small_talk
`;

const chitchat: Command = { command: 'chitchat' };

describe('ChitChat command', () => {
  it('becomes cannot handle (cannot_handle_chitchat) while the default pattern_chitchat uses action_trigger_chitchat', async () => {
    const conversation = await startConversation(inlineAssistant({ domain, flows }));
    const events = await conversation.send('how are you?', [chitchat]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    const started = events.find((event) => event.event === 'flow_started');
    expect(started?.metadata).to.include({ reason: 'cannot_handle_chitchat' });
    expect(actionNames(events)).to.not.include('action_trigger_chitchat');
    expect(utterances(events)).to.deep.equal(['utter_cannot_handle']);
  });

  it('keeps the chitchat when the project overrides pattern_chitchat with a response', async () => {
    const assistant = inlineAssistant({
      domain,
      flows: flowsWithSmallTalk,
    });
    const conversation = await startConversation(assistant);
    const events = await conversation.send('how are you?', [chitchat]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_chitchat']);
    expect(utterances(events)).to.deep.equal(['utter_small_talk']);
  });

  it('answers inside a flow and then asks the pending question again', async () => {
    const assistant = inlineAssistant({
      domain,
      flows: flowsWithSmallTalk,
    });
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('how are you?', [chitchat]);
    expect(utterances(events)).to.deep.equal(['utter_small_talk', 'utter_ask_recipient']);
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
  });

  it('is answered once when the command comes twice', async () => {
    const conversation = await startConversation(inlineAssistant({ domain, flows }));
    const events = await conversation.send('hey hey', [chitchat, chitchat]);
    expect(utterances(events)).to.deep.equal(['utter_cannot_handle']);
  });
});

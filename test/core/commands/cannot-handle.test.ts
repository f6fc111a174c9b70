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

const cannotHandle = (reason?: string): Command =>
  reason === undefined ? { command: 'cannot handle' } : { command: 'cannot handle', reason };

describe('CannotHandle command', () => {
  const cases: readonly [string | undefined, string][] = [
    [undefined, 'utter_ask_rephrase'],
    ['cannot_handle_default', 'utter_ask_rephrase'],
    ['cannot_handle_invalid_intent', 'utter_ask_rephrase'],
    ['cannot_handle_chitchat', 'utter_cannot_handle'],
    ['cannot_handle_not_supported', 'utter_cannot_handle'],
    ['cannot_handle_no_relevant_answer', 'utter_no_relevant_answer_found'],
  ];
  for (const [reason, response] of cases) {
    it(`answers reason ${reason ?? '(none)'} with ${response}`, async () => {
      const conversation = await startConversation(assistant);
      const events = await conversation.send('???', [cannotHandle(reason)]);
      expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
      expect(utterances(events)).to.deep.equal([response]);
    });
  }

  it('records the default reason in the pattern frame when none is given', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('???', [cannotHandle()]);
    const started = events.find((event) => event.event === 'flow_started');
    expect(started?.metadata).to.include({ reason: 'cannot_handle_default' });
  });

  it('is what free text becomes without a command generator, and the question is asked again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('blah blah');
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    expect(utterances(events)).to.deep.equal(['utter_ask_rephrase', 'utter_ask_recipient']);
  });
});

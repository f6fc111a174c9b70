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

const error = (errorType: string, info?: Record<string, unknown>): Command =>
  info ? { command: 'error', error_type: errorType, info } : { command: 'error', error_type: errorType };

describe('Error command', () => {
  it('pushes pattern_internal_error with the error type, answered with utter_internal_error_rasa', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('x', [error('rasa_internal_error_default')]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_internal_error']);
    const started = events.find((event) => event.event === 'flow_started');
    expect(started?.metadata).to.include({ error_type: 'rasa_internal_error_default' });
    expect(utterances(events)).to.deep.equal(['utter_internal_error_rasa']);
  });

  it('answers a too long message with its own response, with the limit in the pattern context', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('x'.repeat(500), [
      error('rasa_internal_error_user_input_too_long', { max_characters: 420 }),
    ]);
    const started = events.find((event) => event.event === 'flow_started');
    expect(started?.metadata).to.deep.include({ info: { max_characters: 420 } });
    expect(utterances(events)).to.deep.equal(['utter_user_input_too_long_error_rasa']);
  });

  it('answers an empty message with its own response', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send(' ', [error('rasa_internal_error_user_input_empty')]);
    expect(utterances(events)).to.deep.equal(['utter_user_input_empty_error_rasa']);
  });

  it('does not cancel the active flow: its question is asked again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('x', [error('rasa_internal_error_default')]);
    expect(events.some((event) => event.event === 'flow_cancelled')).to.equal(false);
    expect(utterances(events)).to.deep.equal(['utter_internal_error_rasa', 'utter_ask_recipient']);
  });
});

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

const knowledge: Command = { command: 'knowledge' };

describe('KnowledgeAnswer command', () => {
  it('runs pattern_search, which says there is no knowledge base, then offers more help', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('what are your fees?', [knowledge]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_search', 'pattern_completed']);
    expect(utterances(events)).to.deep.equal(['utter_no_knowledge_base', 'utter_can_do_something_else']);
  });

  it('answers inside a flow and then asks the pending question again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('what are your fees?', [knowledge]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_search']);
    expect(utterances(events)).to.deep.equal(['utter_no_knowledge_base', 'utter_ask_recipient']);
  });

  it('uses a project pattern_search override', async () => {
    const custom = inlineAssistant({
      domain: `
        responses:
          utter_search_answer:
            - text: Here is what I found.
      `,
      flows: `
        flows:
          pattern_search:
            description: Answer from documents.
            steps:
              - action: utter_search_answer
      `,
    });
    const conversation = await startConversation(custom);
    const events = await conversation.send('fees?', [knowledge]);
    expect(utterances(events)[0]).to.equal('utter_search_answer');
  });
});

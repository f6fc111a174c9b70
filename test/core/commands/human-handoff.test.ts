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
  responses:
    utter_hello:
      - text: Hello!
`;
const flows = `
  flows:
    greet:
      description: Say hello.
      steps:
        - action: utter_hello
`;

const handoff: Command = { command: 'human handoff' };

describe('HumanHandoff command', () => {
  it('runs pattern_human_handoff: the handoff metric, then the not-available response', async () => {
    const conversation = await startConversation(inlineAssistant({ domain, flows }));
    const events = await conversation.send('a human please', [handoff]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_human_handoff']);
    expect(
      actionNames(events).filter((name) => !['action_listen', 'action_session_start'].includes(name)),
    ).to.deep.equal(['action_handoff_metric', 'utter_human_handoff_not_available']);
    expect(utterances(events)).to.deep.equal(['utter_human_handoff_not_available']);
  });

  it('runs without the metric action with the Rasa 3.13 patterns', async () => {
    const assistant = inlineAssistant({
      domain,
      flows,
      config: `
        recipe: default.v1
        language: en
        assistant_id: inline-test
        parley:
          rasa_version: "3.13"
      `,
    });
    const conversation = await startConversation(assistant);
    const events = await conversation.send('a human please', [handoff]);
    expect(actionNames(events)).to.not.include('action_handoff_metric');
    expect(utterances(events)).to.deep.equal(['utter_human_handoff_not_available']);
  });

  it('uses a project override of the pattern', async () => {
    const assistant = inlineAssistant({
      domain: `
        responses:
          utter_transferring:
            - text: Connecting you to an agent.
      `,
      flows: `
        flows:
          pattern_human_handoff:
            description: Hand over to an agent.
            steps:
              - action: utter_transferring
      `,
    });
    const conversation = await startConversation(assistant);
    const events = await conversation.send('a human please', [handoff]);
    expect(utterances(events)).to.deep.equal(['utter_transferring']);
  });
});

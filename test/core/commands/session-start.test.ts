import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  actionNames,
  eventNames,
  flowsStarted,
  inlineAssistant,
  startConversation,
} from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    responses:
      utter_hello:
        - text: Hello!
  `,
  flows: `
    flows:
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

const sessionStart: Command = { command: 'session start' };

describe('SessionStart command', () => {
  it('runs pattern_session_start, whose action_session_start starts a new session', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('hi', [{ command: 'start flow', flow: 'greet' }]);
    const events = await conversation.send('(call picked up)', [sessionStart]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_session_start']);
    expect(actionNames(events)).to.include('action_session_start');
    expect(eventNames(events)).to.include('session_started');
    expect(eventNames(events).at(-1)).to.equal('action');
    expect(actionNames(events).at(-1)).to.equal('action_listen');
  });

  it('is what the /session_start intent triggers', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('hi', [{ command: 'start flow', flow: 'greet' }]);
    const events = await conversation.send('/session_start');
    expect(flowsStarted(events)).to.deep.equal(['pattern_session_start']);
    expect(eventNames(events)).to.include('session_started');
  });

  it('uses a project override of the pattern', async () => {
    const custom = inlineAssistant({
      domain: `
        responses:
          utter_greet_caller:
            - text: Thanks for calling.
      `,
      flows: `
        flows:
          pattern_session_start:
            description: Greet the caller.
            nlu_trigger:
              - intent: session_start
            steps:
              - action: utter_greet_caller
      `,
    });
    const conversation = await startConversation(custom);
    const events = await conversation.send('/session_start');
    expect(flowsStarted(events)).to.deep.equal(['pattern_session_start']);
    expect(actionNames(events)).to.include('utter_greet_caller');
  });
});

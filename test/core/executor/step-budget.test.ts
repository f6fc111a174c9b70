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
      counter:
        type: float
    responses:
      utter_hello:
        - text: Hello!
  `,
  flows: `
    flows:
      spin:
        description: A flow that never ends.
        steps:
          - id: again
            set_slots:
              - counter: 1
            next: turn
          - id: turn
            noop: true
            next: again
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

const start = (flow: string): Command => ({ command: 'start flow', flow });

describe('step budget', () => {
  it('stops a flow that loops forever with pattern_internal_error instead of hanging', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('spin', [start('spin')]);
    expect(flowsStarted(events)).to.include('pattern_internal_error');
    const error = events.find(
      (event) => event.event === 'flow_started' && event.flow_id === 'pattern_internal_error',
    );
    expect(error?.metadata).to.include({ error_type: 'rasa_internal_error_default' });
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    const last = events.at(-1);
    expect(last).to.include({ event: 'action', name: 'action_listen' });
    expect((await conversation.stack()).filter((frame) => frame.type === 'flow')).to.deep.equal([]);
  });

  it('respects a smaller budget from the engine options', async () => {
    const conversation = await startConversation(assistant, { engineOptions: { maxStepsPerPrediction: 10 } });
    const events = await conversation.send('spin', [start('spin')]);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
  });

  it('leaves the conversation usable for the next message', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('spin', [start('spin')]);
    const events = await conversation.send('hi', [start('greet')]);
    expect(flowsStarted(events)[0]).to.equal('greet');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });
});

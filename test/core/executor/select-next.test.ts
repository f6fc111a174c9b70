import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import { stackUpdateEvent } from '../../../src/core/events/stack-update.js';
import {
  flowEvents,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });

const assistant = inlineAssistant({
  domain: `
    slots:
      rounds:
        type: float
    responses:
      utter_round:
        - text: Another round.
      utter_hello:
        - text: Hello!
  `,
  flows: `
    flows:
      two_rounds:
        description: Say the same thing twice by going back to the start.
        steps:
          - action: utter_round
            next:
              - if: slots.rounds is null
                then:
                  - set_slots:
                      - rounds: 1
                    next: START
              - else: END
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

describe('selecting the next step', () => {
  it('goes back to the first step on a link to START', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('go', [start('two_rounds')]);
    expect(utterances(events)).to.deep.equal(['utter_round', 'utter_round', 'utter_can_do_something_else']);
  });

  it('completes a flow whose stored frame stands at END', async () => {
    const conversation = await startConversation(assistant);
    const frame = {
      frame_id: 'OLD00001',
      flow_id: 'greet',
      step_id: 'END',
      frame_type: 'regular',
      type: 'flow',
    };
    const stack = stackUpdateEvent([], [frame as never]);
    if (!stack) throw new Error('expected a stack event');
    await conversation.append([stack]);
    const events = await conversation.send('hmm');
    expect(flowEvents(events)).to.include('flow_completed greet');
  });
});

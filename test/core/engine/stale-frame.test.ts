/*
 * Engine behaviour found missing by the unit tests and fixed since; kept as regression tests.
 *
 * A frame whose flow was removed from the assistant is only dropped by the executor once it reaches the
 * top of the stack (src/core/executor/advance.ts). While it sits below, the rest of the engine treats it
 * as a live user flow: a StartFlow emits flow_interrupted for it and pushes an `interrupt` frame, and
 * when the new flow ends pattern_continue_interrupted offers to go back to the removed flow
 * ("Do you want to go back to removed_flow?"). Rasa never offers a flow that does not exist: it detects
 * flows on the stack that are missing or changed (find_updated_flows / flow_hashes) and replaces the
 * turn's commands with HandleCodeChange (pattern_code_change cleans the stack), spec §2.10; and the
 * 3.16.8+ fix drops stale frames instead of raising. Either way the removed flow is not interrupted,
 * resumed or offered.
 */
import { expect } from 'chai';
import { stackUpdateEvent } from '../../../src/core/events/stack-update.js';
import {
  flowEvents,
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

describe('stale frame below the top', () => {
  it('does not interrupt, or offer to continue, a flow that no longer exists', async () => {
    const conversation = await startConversation(assistant);
    const stale = stackUpdateEvent(
      [],
      [
        {
          frame_id: 'OLD00001',
          flow_id: 'removed_flow',
          step_id: 'removed_step',
          frame_type: 'regular',
          type: 'flow',
        },
      ],
    );
    if (!stale) throw new Error('expected a stack event');
    await conversation.append([stale]);
    const events = await conversation.send('hi', [{ command: 'start flow', flow: 'greet' }]);
    // actual: flow_interrupted removed_flow, then pattern_continue_interrupted asks about removed_flow
    expect(flowEvents(events)).to.not.include('flow_interrupted removed_flow');
    expect(flowsStarted(events)).to.not.include('pattern_continue_interrupted');
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.not.include('removed_flow');
  });
});

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  flowEvents,
  flowsStarted,
  inlineAssistant,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });

const assistant = inlineAssistant({
  domain: `
    slots:
      topic:
        type: text
      email:
        type: text
    responses:
      utter_ask_topic:
        - text: Which topic?
      utter_ask_email:
        - text: Your email?
      utter_linking:
        - text: Let me pass you on.
      utter_subscribed:
        - text: Subscribed.
  `,
  flows: `
    flows:
      choose_topic:
        description: Choose a topic, then subscribe.
        steps:
          - collect: topic
          - action: utter_linking
          - link: subscribe
      subscribe:
        description: Subscribe to the newsletter.
        if: False
        steps:
          - collect: email
          - action: utter_subscribed
      escalate:
        description: Hand the user over to a human.
        steps:
          - action: utter_linking
          - link: pattern_human_handoff
  `,
});

describe('link step', () => {
  it('completes the linking flow, then starts the linked flow: flow_completed before flow_started', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('newsletter', [start('choose_topic')]);
    const events = await conversation.send('sports', [
      { command: 'set slot', name: 'topic', value: 'sports' },
    ]);
    const lifecycle = flowEvents(events).filter((line) => !line.includes('pattern_'));
    expect(lifecycle).to.deep.equal(['flow_completed choose_topic', 'flow_started subscribe']);
    expect(utterances(events)).to.deep.equal(['utter_linking', 'utter_ask_email']);
  });

  it('resets the linking flow slots when it ends and runs the linked flow as a link frame', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('newsletter', [start('choose_topic')]);
    const events = await conversation.send('sports', [
      { command: 'set slot', name: 'topic', value: 'sports' },
    ]);
    expect(slotValues(events, 'topic')).to.deep.equal(['sports', null]);
    const stack = await conversation.stack();
    expect(stack[0]).to.include({ flow_id: 'subscribe', frame_type: 'link' });
    expect(stack.map((frame) => frame.flow_id)).to.not.include('choose_topic');
  });

  it('starts a guarded flow (if: False) and offers more help when the linked flow ends', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('newsletter', [start('choose_topic')]);
    await conversation.send('sports', [{ command: 'set slot', name: 'topic', value: 'sports' }]);
    const events = await conversation.send('a@b.c', [{ command: 'set slot', name: 'email', value: 'a@b.c' }]);
    expect(flowEvents(events)).to.include('flow_completed subscribe');
    expect(utterances(events)).to.deep.equal(['utter_subscribed', 'utter_can_do_something_else']);
  });

  it('links to pattern_human_handoff', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('escalate', [start('escalate')]);
    expect(flowsStarted(events)).to.deep.equal(['escalate', 'pattern_human_handoff']);
    const lifecycle = flowEvents(events);
    expect(lifecycle.indexOf('flow_completed escalate')).to.be.lessThan(
      lifecycle.indexOf('flow_started pattern_human_handoff'),
    );
    expect(utterances(events)).to.deep.equal(['utter_linking', 'utter_human_handoff_not_available']);
  });
});

import { expect } from 'chai';
import type { Event } from '../../../src/core/events/types.js';
import type { Frame } from '../../../src/core/stack/frames.js';
import { inlineAssistant } from '../../support/inline-assistant.js';
import {
  executed,
  flowFrame,
  runAction,
  stackAfter,
  summary,
  userWithIntent,
  withStacks,
} from './run-action.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      size:
        type: text
    responses:
      utter_ask_size:
        - text: Which size?
  `,
  flows: `
    flows:
      order_pizza:
        name: order a pizza
        description: Order a pizza.
        steps:
          - collect: size
      check_balance:
        name: check your balance
        description: Check the balance.
        steps:
          - action: action_listen
  `,
});

const pizza: Frame = {
  frame_id: 'P',
  flow_id: 'order_pizza',
  step_id: 'collect_size',
  frame_type: 'regular',
  type: 'flow',
};
const digression: Frame = {
  frame_id: 'D',
  flow_id: 'pattern_handle_digressions',
  step_id: 'START',
  type: 'pattern_handle_digressions',
  interrupting_flow_id: 'check_balance',
  interrupted_flow_id: 'order_pizza',
  interrupted_step_id: 'collect_size',
  ask_confirm_digressions: [],
  block_digressions: ['check_balance'],
};

const withStack = (stack: readonly Frame[]): Event[] => withStacks(stack);

describe('built-in marker and digression actions', () => {
  it('action_deactivate_loop ends the active loop and clears requested_slot', async () => {
    expect(summary(await runAction(assistant, 'action_deactivate_loop', []))).to.deep.equal([
      'active_loop:null',
      'slot:requested_slot=null',
    ]);
  });

  it('action_unlikely_intent, action_extract_slots and action_handoff_metric change nothing', async () => {
    for (const name of ['action_unlikely_intent', 'action_extract_slots', 'action_handoff_metric'])
      expect(
        await runAction(assistant, name, [executed('action_listen'), userWithIntent('greet')]),
      ).to.deep.equal([]);
  });

  it('action_send_text sends the message the prediction attached, and an empty text without one', async () => {
    const message = { text: 'From the knowledge base.', buttons: [{ title: 'More', payload: '/more' }] };
    const [sent] = await runAction(assistant, 'action_send_text', [], { metadata: { message } });
    expect(sent).to.deep.include({ event: 'bot', text: 'From the knowledge base.' });
    expect(sent?.event === 'bot' ? sent.data.buttons : undefined).to.deep.equal(message.buttons);
    expect(summary(await runAction(assistant, 'action_send_text', []))).to.deep.equal(['bot:']);
    const silent = await runAction(assistant, 'action_send_text', [], {
      metadata: { message, should_send_text: false },
    });
    expect(silent).to.deep.equal([]);
  });

  it('action_agent_request_user_input sends the agent message it was given', async () => {
    const events = await runAction(assistant, 'action_agent_request_user_input', [], {
      metadata: { message: { text: 'Which account?' } },
    });
    expect(summary(events)).to.deep.equal(['bot:Which account?']);
  });

  describe('action_block_digression / action_continue_digression (pattern_handle_digressions)', () => {
    it('block: puts the blocked flow at the bottom with pattern_continue_interrupted above it, then says so', async () => {
      const events = await runAction(assistant, 'action_block_digression', withStack([pizza, digression]));
      const stack = stackAfter([pizza, digression], events);
      expect(stack.map((frame) => `${frame.type}:${frame.flow_id}`)).to.deep.equal([
        'flow:check_balance',
        'pattern_continue_interrupted:pattern_continue_interrupted',
        'flow:order_pizza',
        'pattern_handle_digressions:pattern_handle_digressions',
      ]);
      expect(stack[1]).to.deep.include({
        previous_flow_name: 'check your balance',
        interrupted_flow_names: ['check your balance'],
        interrupted_flow_ids: ['check_balance'],
        interrupted_flow_options: 'check your balance',
        multiple_flows_interrupted: false,
      });
      expect(
        events.filter((event) => event.event === 'bot').map((event) => event.metadata?.['utter_action']),
      ).to.deep.equal(['utter_block_digressions']);
    });

    it('block: a flow already on the stack is not added again; only the message', async () => {
      const balance: Frame = { ...pizza, frame_id: 'B', flow_id: 'check_balance' };
      const events = await runAction(
        assistant,
        'action_block_digression',
        withStack([balance, pizza, digression]),
      );
      expect(summary(events)).to.deep.equal([
        `bot:Sorry, I can't do that right now. Let's finish what we started first.`,
      ]);
    });

    it('continue: the interrupting flow starts on top as an interruption of the recorded flow', async () => {
      const events = await runAction(assistant, 'action_continue_digression', withStack([pizza, digression]));
      expect(summary(events)).to.deep.equal(['flow_interrupted', 'stack', "bot:Okay, let's do that first."]);
      expect(events[0]).to.deep.include({ flow_id: 'order_pizza', step_id: 'collect_size' });
      const top = stackAfter([pizza, digression], events).at(-1);
      expect(top).to.deep.include({ flow_id: 'check_balance', frame_type: 'interrupt', step_id: 'START' });
    });

    it('block: a flow the assistant does not know is offered under its id', async () => {
      const unknown = { ...digression, interrupting_flow_id: 'book_flight' };
      const events = await runAction(assistant, 'action_block_digression', withStack([pizza, unknown]));
      expect(stackAfter([pizza, unknown], events)[1]).to.deep.include({
        interrupted_flow_options: 'book_flight',
      });
    });

    it('continue: an earlier frame of the interrupting flow leaves the stack; the flow starts anew on top', async () => {
      const earlier = flowFrame('B', 'check_balance', 'START');
      const before = [earlier, pizza, digression];
      const events = await runAction(assistant, 'action_continue_digression', withStack(before));
      expect(stackAfter(before, events).map((frame) => `${frame.frame_id}:${frame.flow_id}`)).to.deep.equal([
        'P:order_pizza',
        'D:pattern_handle_digressions',
        'N1:check_balance',
      ]);
    });

    it('both do nothing when pattern_handle_digressions is not the top frame', async () => {
      for (const name of ['action_block_digression', 'action_continue_digression'])
        for (const history of [withStack([pizza]), []])
          expect(await runAction(assistant, name, history)).to.deep.equal([]);
    });
  });
});

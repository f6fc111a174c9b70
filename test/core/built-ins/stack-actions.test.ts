import { expect } from 'chai';
import { cannotHandleEffects, NO_RELEVANT_ANSWER_REASON } from '../../../src/core/built-ins/cannot-handle.js';
import { DEFAULT_ENGINE_OPTIONS } from '../../../src/core/engine-context.js';
import type { EngineContext } from '../../../src/core/engine-context.js';
import { createTrackerState } from '../../../src/core/events/tracker-state.js';
import { foldEvents } from '../../../src/core/events/fold-events.js';
import type { Event, UnstampedEvent } from '../../../src/core/events/types.js';
import { FlowList } from '../../../src/core/flows/flow-list.js';
import type { Frame } from '../../../src/core/stack/frames.js';
import { contextValue } from '../../../src/core/stack/operations.js';
import { inlineAssistant } from '../../support/inline-assistant.js';
import {
  T0,
  flowFrame,
  frameSteps,
  patternOf,
  runAction,
  stackAfter,
  summary,
  withStacks,
} from './run-action.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      recipient:
        type: text
      amount:
        type: float
      code:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_ask_amount:
        - text: How much?
      utter_ask_code:
        - text: Which code?
  `,
  flows: `
    flows:
      transfer_money:
        name: transfer money
        description: Send money to someone.
        steps:
          - collect: recipient
          - collect: amount
          - call: verify
      verify:
        name: verify the transfer
        description: Ask for a code.
        steps:
          - collect: code
      check_balance:
        name: check your balance
        description: Check the balance.
        steps:
          - action: action_listen
      add_card:
        name: add a card
        description: Add a card.
        steps:
          - action: action_listen
  `,
});

const slotEffects = (events: readonly UnstampedEvent[]): string[] =>
  summary(events).filter((item) => item.startsWith('slot:'));

/** Runs the action on a conversation whose stack went through `stacks`; returns the final stack and events. */
async function onStacks(
  name: string,
  ...stacks: readonly (readonly Frame[])[]
): Promise<{ events: readonly UnstampedEvent[]; stack: string[] }> {
  const events = await runAction(assistant, name, withStacks(...stacks));
  return { events, stack: frameSteps(stackAfter(stacks.at(-1) ?? [], events)) };
}

describe('built-in actions that change the dialogue stack', () => {
  describe('action_clean_stack (pattern_code_change)', () => {
    it('winds every frame below the pattern down, leaving the pattern to finish', async () => {
      const { stack } = await onStacks('action_clean_stack', [
        flowFrame('T', 'transfer_money', 'collect_amount'),
        flowFrame('B', 'check_balance', 'START', 'interrupt'),
        patternOf('P', 'pattern_code_change'),
      ]);
      expect(stack).to.deep.equal([
        'T:transfer_money@NEXT:END',
        'B:check_balance@NEXT:END',
        'P:pattern_code_change@START',
      ]);
    });
  });

  describe('action_clarify_flows (pattern_clarification)', () => {
    it('writes the flow names as one readable "A, B or C" choice into the pattern', async () => {
      const names = ['transfer money', 'check your balance', 'add a card'];
      const before = [patternOf('C', 'pattern_clarification', { names })];
      const events = await runAction(assistant, 'action_clarify_flows', withStacks(before));
      expect(stackAfter(before, events)[0]).to.deep.include({
        clarification_options: 'transfer money, check your balance or add a card',
        names,
      });
    });

    it('writes an empty choice when the pattern names no flows', async () => {
      const before = [patternOf('C', 'pattern_clarification')];
      const events = await runAction(assistant, 'action_clarify_flows', withStacks(before));
      expect(stackAfter(before, events)[0]).to.deep.include({ clarification_options: '' });
    });

    it('does nothing unless pattern_clarification is the top frame', async () => {
      const names = ['transfer money', 'add a card'];
      const below = [patternOf('C', 'pattern_clarification', { names }), flowFrame('T', 'add_card', 'START')];
      expect(await runAction(assistant, 'action_clarify_flows', withStacks(below))).to.deep.equal([]);
      expect(await runAction(assistant, 'action_clarify_flows', [])).to.deep.equal([]);
    });
  });

  describe('action_correct_flow_slot (pattern_correction)', () => {
    const correction = (resetFlow: string | null, resetStep: string | null, slots: object): Frame =>
      patternOf('K', 'pattern_correction', {
        reset_flow_id: resetFlow,
        reset_step_id: resetStep,
        corrected_slots: slots,
        is_reset_only: false,
      });
    const collecting = (frameId: string, slot: string): Frame =>
      patternOf(frameId, 'pattern_collect_information', { collect: slot }, 'ask_collect');

    it('rewinds the flow to the collect step, keeps what is below it, winds down what ran above, then sets the slots', async () => {
      const below = flowFrame('X', 'add_card', 'START');
      const { events, stack } = await onStacks(
        'action_correct_flow_slot',
        [below, flowFrame('T', 'transfer_money', 'collect_amount', 'interrupt'), collecting('C1', 'amount')],
        [
          below,
          flowFrame('T', 'transfer_money', 'call_verify', 'interrupt'),
          collecting('C2', 'code'),
          correction('transfer_money', 'collect_amount', { amount: 70 }),
        ],
      );
      expect(stack).to.deep.equal([
        'X:add_card@START',
        'T:transfer_money@NEXT:collect_amount',
        'C2:pattern_collect_information@NEXT:END',
        'K:pattern_correction@START',
      ]);
      expect(slotEffects(events)).to.deep.equal(['slot:amount=70']);
      expect(events.at(-1)).to.deep.include({ metadata: { filled_by: 'LLM' } });
    });

    it('keeps the frames below the flow as they are now, not as they were at the collect step', async () => {
      const { stack } = await onStacks(
        'action_correct_flow_slot',
        [
          flowFrame('X', 'add_card', 'START'),
          flowFrame('T', 'transfer_money', 'collect_amount', 'interrupt'),
        ],
        [
          flowFrame('X', 'add_card', 'NEXT:END'),
          flowFrame('T', 'transfer_money', 'call_verify', 'interrupt'),
          correction('transfer_money', 'collect_amount', { amount: 70 }),
        ],
      );
      expect(stack).to.deep.equal([
        'X:add_card@NEXT:END',
        'T:transfer_money@NEXT:collect_amount',
        'K:pattern_correction@START',
      ]);
    });

    it('only rewinds when the pattern lists no corrected slots', async () => {
      for (const slots of [{}, { corrected_slots: null }]) {
        const bare = patternOf('K', 'pattern_correction', {
          reset_flow_id: 'transfer_money',
          reset_step_id: 'collect_amount',
          ...slots,
        });
        const { events } = await onStacks('action_correct_flow_slot', [
          flowFrame('T', 'transfer_money', 'call_verify'),
          bare,
        ]);
        expect(summary(events)).to.deep.equal(['stack']);
      }
    });

    it('brings a called flow that has ended back with its caller, at the collect step to re-run', async () => {
      const { stack } = await onStacks(
        'action_correct_flow_slot',
        [
          flowFrame('T', 'transfer_money', 'call_verify'),
          flowFrame('V', 'verify', 'collect_code', 'call'),
          collecting('C1', 'code'),
        ],
        [flowFrame('T', 'transfer_money', 'END'), correction('verify', 'collect_code', { code: '42' })],
      );
      expect(stack).to.deep.equal([
        'T:transfer_money@call_verify',
        'V:verify@NEXT:collect_code',
        'K:pattern_correction@START',
      ]);
    });

    it('does not repeat a called flow that is still running: its frame is the one restored', async () => {
      const { stack } = await onStacks(
        'action_correct_flow_slot',
        [
          flowFrame('T', 'transfer_money', 'call_verify'),
          flowFrame('V', 'verify', 'collect_code', 'call'),
          collecting('C1', 'code'),
        ],
        [
          flowFrame('T', 'transfer_money', 'call_verify'),
          flowFrame('V', 'verify', 'confirm_code', 'call'),
          collecting('C2', 'amount'),
          correction('verify', 'collect_code', { code: '42' }),
        ],
      );
      expect(stack).to.deep.equal([
        'T:transfer_money@call_verify',
        'V:verify@NEXT:collect_code',
        'C2:pattern_collect_information@NEXT:END',
        'K:pattern_correction@START',
      ]);
    });

    it('restores the past frames of a flow that has since started again, and winds the new one down', async () => {
      const { stack } = await onStacks(
        'action_correct_flow_slot',
        [
          flowFrame('X', 'add_card', 'START'),
          flowFrame('T1', 'transfer_money', 'collect_amount', 'interrupt'),
        ],
        [
          flowFrame('X', 'add_card', 'START'),
          flowFrame('T2', 'transfer_money', 'collect_recipient', 'interrupt'),
          correction('transfer_money', 'collect_amount', { amount: 70 }),
        ],
      );
      expect(stack).to.deep.equal([
        'X:add_card@START',
        'T1:transfer_money@NEXT:collect_amount',
        'T2:transfer_money@NEXT:END',
        'K:pattern_correction@START',
      ]);
    });

    it('without a past stack at that step, sends the flow own frame back to it and winds down the flows above', async () => {
      const { stack } = await onStacks('action_correct_flow_slot', [
        flowFrame('T', 'transfer_money', 'call_verify'),
        flowFrame('B', 'check_balance', 'START', 'interrupt'),
        correction('transfer_money', 'collect_amount', { amount: 70 }),
      ]);
      expect(stack).to.deep.equal([
        'T:transfer_money@NEXT:collect_amount',
        'B:check_balance@NEXT:END',
        'K:pattern_correction@START',
      ]);
    });

    it('only sets the slots when there is no step to go back to, or the flow is no longer on the stack', async () => {
      for (const frame of [
        correction(null, null, { amount: 70 }),
        correction('verify', 'collect_code', { amount: 70 }),
      ]) {
        const { events } = await onStacks('action_correct_flow_slot', [
          flowFrame('T', 'transfer_money', 'collect_recipient'),
          frame,
        ]);
        expect(summary(events)).to.deep.equal(['slot:amount=70']);
      }
    });

    it('does nothing unless pattern_correction is the top frame', async () => {
      const { events } = await onStacks('action_correct_flow_slot', [
        flowFrame('T', 'transfer_money', 'collect_recipient'),
        correction('transfer_money', 'collect_recipient', { recipient: 'Bob' }),
        collecting('C', 'recipient'),
      ]);
      expect(events).to.deep.equal([]);
      expect(await runAction(assistant, 'action_correct_flow_slot', [])).to.deep.equal([]);
    });
  });

  describe('action_continue_interrupted_flow / action_cancel_interrupted_flows', () => {
    const offer = patternOf('O', 'pattern_continue_interrupted', { multiple_flows_interrupted: true });
    const choose = (value: string): Event => ({
      event: 'slot',
      timestamp: T0,
      name: 'interrupted_flow_to_continue',
      value,
    });

    it('brings the flow the user named (by its name, in any case) to the top, under the pattern', async () => {
      const before = [
        flowFrame('T', 'transfer_money', 'collect_amount'),
        flowFrame('B', 'check_balance', 'START', 'interrupt'),
        // a flow the assistant no longer has is matched by its id
        flowFrame('R', 'retired_flow', 'collect_x', 'interrupt'),
        offer,
      ];
      const events = await runAction(assistant, 'action_continue_interrupted_flow', [
        ...withStacks(before),
        choose(' Transfer Money'),
      ]);
      expect(frameSteps(stackAfter(before, events))).to.deep.equal([
        'B:check_balance@START',
        'R:retired_flow@collect_x',
        'T:transfer_money@collect_amount',
        'O:pattern_continue_interrupted@START',
      ]);
      expect(events.at(-1)).to.deep.include({
        event: 'flow_resumed',
        flow_id: 'transfer_money',
        step_id: 'collect_amount',
      });
    });

    it('brings a resumed flow back with the flow it called and the question it was asking', async () => {
      const before = [
        flowFrame('T', 'transfer_money', 'call_verify'),
        flowFrame('V', 'verify', 'collect_code', 'call'),
        patternOf('C', 'pattern_collect_information', { collect: 'code' }),
        flowFrame('B', 'check_balance', 'START', 'interrupt'),
        offer,
      ];
      const events = await runAction(assistant, 'action_continue_interrupted_flow', [
        ...withStacks(before),
        choose('transfer_money'),
      ]);
      expect(frameSteps(stackAfter(before, events)).map((frame) => frame.split(':')[0])).to.deep.equal([
        'B',
        'T',
        'V',
        'C',
        'O',
      ]);
    });

    it('resumes the latest interrupted flow when the user named none of them; one already on top stays', async () => {
      const before = [flowFrame('T', 'transfer_money', 'collect_amount'), offer];
      const events = await runAction(assistant, 'action_continue_interrupted_flow', [
        ...withStacks(before),
        choose('the weather'),
      ]);
      expect(summary(events)).to.deep.equal(['flow_resumed']);
      expect(
        await runAction(assistant, 'action_continue_interrupted_flow', withStacks([offer])),
      ).to.deep.equal([]);
      expect(await runAction(assistant, 'action_continue_interrupted_flow', [])).to.deep.equal([]);
    });

    it('cancels every interrupted flow with its own frames, each through pattern_cancel_flow', async () => {
      const before = [
        flowFrame('R', 'retired_flow', 'collect_x'),
        flowFrame('T', 'transfer_money', 'call_verify', 'interrupt'),
        flowFrame('V', 'verify', 'collect_code', 'call'),
        flowFrame('B', 'check_balance', 'START', 'interrupt'),
        offer,
      ];
      const events = await runAction(assistant, 'action_cancel_interrupted_flows', withStacks(before));
      expect(
        events.flatMap((event) => (event.event === 'flow_cancelled' ? [event.flow_id] : [])),
      ).to.deep.equal(['check_balance', 'transfer_money', 'retired_flow']);
      const pushed = stackAfter(before, events).slice(before.length);
      expect(
        pushed.map((frame) => [
          frame.type,
          contextValue(frame, 'canceled_name'),
          contextValue(frame, 'canceled_frames'),
        ]),
      ).to.deep.equal([
        ['pattern_cancel_flow', 'check your balance', ['B']],
        ['pattern_cancel_flow', 'transfer money', ['T', 'V']],
        // a flow the assistant no longer has is named by its id
        ['pattern_cancel_flow', 'retired_flow', ['R']],
      ]);
    });
  });

  describe('pattern_cannot_handle from the knowledge search', () => {
    const context = (flows: FlowList): EngineContext => ({
      flows,
      domain: assistant.domain,
      now: T0,
      newFrameId: () => 'N1',
      options: DEFAULT_ENGINE_OPTIONS,
    });
    const before = [flowFrame('T', 'transfer_money', 'collect_amount')];
    const state = foldEvents(createTrackerState({ senderId: 'u', initialSlots: {} }), withStacks(before));

    it('pushes pattern_cannot_handle with the reason its branches read', () => {
      const effects = cannotHandleEffects(state, context(assistant.flows), NO_RELEVANT_ANSWER_REASON);
      const events = effects.flatMap((effect) => (effect.kind === 'event' ? [effect.event] : []));
      expect(events).to.have.length(effects.length);
      expect(stackAfter(before, events).at(-1)).to.deep.include({
        type: 'pattern_cannot_handle',
        frame_id: 'N1',
        reason: 'cannot_handle_no_relevant_answer',
      });
    });

    it('pushes nothing for flows without that pattern', () => {
      const flows = new FlowList(assistant.flows.flows.filter((flow) => flow.id !== 'pattern_cannot_handle'));
      expect(cannotHandleEffects(state, context(flows), NO_RELEVANT_ANSWER_REASON)).to.deep.equal([]);
    });
  });
});

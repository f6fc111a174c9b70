/** Shared fixtures of the LLM understanding tests: a small bank assistant and its engine context. */
import type { Assistant } from '../../../src/core/assistant.js';
import type { Command } from '../../../src/core/commands/types.js';
import { DEFAULT_ENGINE_OPTIONS } from '../../../src/core/engine-context.js';
import type { EngineContext } from '../../../src/core/engine-context.js';
import { createTrackerState } from '../../../src/core/events/tracker-state.js';
import type { TrackerState } from '../../../src/core/events/tracker-state.js';
import { inlineAssistant, startConversation } from '../../support/inline-assistant.js';

export const BANK_DOMAIN = `
  slots:
    recipient:
      type: text
    amount:
      type: float
    confirmed:
      type: bool
    account_type:
      type: categorical
      values: [checking, savings]
    pin:
      type: text
    is_premium:
      type: bool
      initial_value: false
  responses:
    utter_ask_recipient:
      - text: Who should get the money?
        buttons:
          - title: Jane
            payload: /SetSlots(recipient=Jane)
    utter_ask_amount:
      - text: How much?
    utter_ask_confirmed:
      - text: Shall I send it?
    utter_ask_account_type:
      - text: Which account?
    utter_ask_pin:
      - text: Your PIN, please.
    utter_done:
      - text: Done.
`;

export const BANK_FLOWS = `
  flows:
    transfer_money:
      description: Send money to a friend or family member.
      steps:
        - collect: recipient
          description: the name of the person who gets the money
        - id: ask_amount
          collect: amount
          description: the amount of money to send
        - collect: confirmed
          ask_before_filling: true
        - action: utter_done
    check_balance:
      description: Tell the user how much money is on one of their accounts.
      steps:
        - collect: account_type
          description: the account to look at
        - action: utter_done
    premium_lounge:
      description: Book a seat in the premium lounge.
      if: slots.is_premium
      steps:
        - action: utter_done
    hidden_admin:
      description: Reset every account (internal use only).
      if: False
      steps:
        - action: utter_done
    change_pin:
      description: Change the PIN of a card.
      steps:
        - collect: pin
          force_slot_filling: true
        - action: utter_done
`;

let bank: Assistant | undefined;

export function bankAssistant(): Assistant {
  bank ??= inlineAssistant({ domain: BANK_DOMAIN, flows: BANK_FLOWS });
  return bank;
}

export function engineFor(assistant: Assistant): EngineContext {
  let frames = 0;
  return {
    flows: assistant.flows,
    domain: assistant.domain,
    now: 1_700_000_000,
    newFrameId: () => `F${(frames += 1)}`,
    options: DEFAULT_ENGINE_OPTIONS,
  };
}

/** A fresh conversation's state: every slot at its initial value, nothing on the stack. */
export function emptyState(assistant: Assistant): TrackerState {
  const initialSlots = Object.fromEntries(
    [...assistant.domain.slots.values()].map((slot) => [slot.name, slot.initialValue]),
  );
  return createTrackerState({ senderId: 'tester', initialSlots });
}

/** The state after the given turns, each applied with its commands through the real engine. */
export async function stateAfter(
  assistant: Assistant,
  turns: readonly { text: string; commands: readonly Command[] }[],
): Promise<TrackerState> {
  const conversation = await startConversation(assistant);
  for (const turn of turns) await conversation.send(turn.text, turn.commands);
  return conversation.state();
}

export const startFlow = (flow: string): Command => ({ command: 'start flow', flow });
export const setSlot = (name: string, value: unknown): Command => ({
  command: 'set slot',
  name,
  value,
  extractor: 'LLM',
});

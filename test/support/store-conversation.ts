/**
 * A small money-transfer assistant and a scripted conversation that exercises most of the tracker
 * state (slots, a correction with stack history, an interruption, bot turns, a cancelled flow), for
 * tests of snapshots and stores that need states produced by real turns.
 */
import type { Assistant } from '../../src/core/assistant.js';
import type { Command } from '../../src/core/commands/types.js';
import { inlineAssistant } from './inline-assistant.js';

export function transferAssistant(): Assistant {
  return inlineAssistant({
    domain: `
      slots:
        recipient:
          type: text
        amount:
          type: float
        confirm:
          type: bool
        city:
          type: text
      responses:
        utter_ask_recipient:
          - text: To whom?
        utter_ask_amount:
          - text: How much?
        utter_ask_confirm:
          - text: Send {amount} to {recipient}?
        utter_ask_city:
          - text: Which city?
        utter_weather:
          - text: Sunny in {city} 🌞.
        utter_sent:
          - text: Sent.
    `,
    flows: `
      flows:
        transfer_money:
          description: Send money to someone.
          steps:
            - collect: recipient
            - collect: amount
            - collect: confirm
            - action: utter_sent
        check_weather:
          description: Tell the weather in a city.
          steps:
            - collect: city
            - action: utter_weather
    `,
  });
}

export interface ScriptedTurn {
  readonly text: string;
  readonly commands: readonly Command[];
}

const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });

/** Turns for `transferAssistant`: one full transfer with a correction and an interruption, then a cancel. */
export const TRANSFER_SCRIPT: readonly ScriptedTurn[] = [
  { text: 'send money', commands: [{ command: 'start flow', flow: 'transfer_money' }] },
  { text: 'to Zoë', commands: [set('recipient', 'Zoë')] },
  { text: '50', commands: [set('amount', 50)] },
  {
    text: 'no, 70',
    commands: [{ command: 'correct slot', corrected_slots: [{ name: 'amount', value: 70 }] }],
  },
  { text: 'weather?', commands: [{ command: 'start flow', flow: 'check_weather' }] },
  { text: 'Zürich', commands: [set('city', 'Zürich')] },
  { text: 'back to the transfer', commands: [set('continue_interrupted_flow_confirmation', true)] },
  { text: 'yes', commands: [set('confirm', true)] },
  { text: 'send money again', commands: [{ command: 'start flow', flow: 'transfer_money' }] },
  { text: 'to Ann', commands: [set('recipient', 'Ann')] },
  { text: 'stop', commands: [{ command: 'cancel flow' }] },
];

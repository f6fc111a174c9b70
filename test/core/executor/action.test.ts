import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  actionNames,
  flowEvents,
  inlineAssistant,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });

const assistant = inlineAssistant({
  domain: `
    actions:
      - action_check_balance
    slots:
      balance:
        type: float
        mappings:
          - type: controlled
    responses:
      utter_greet:
        - text: Hello!
      utter_rich:
        - text: Plenty of money.
      utter_poor:
        - text: Not much money.
      utter_bye:
        - text: Bye.
  `,
  flows: `
    flows:
      greet:
        description: Say hello.
        steps:
          - action: utter_greet
          - action: utter_bye
      rich:
        description: Say the flow's own response.
        steps:
          - action: "utter_{{context.flow_id}}"
          - action: utter_bye
      farewell:
        description: Say goodbye.
        steps:
          - action: "utter_{{context.flow_id}}"
          - action: utter_bye
      check_balance:
        description: Tell whether the balance is high.
        steps:
          - action: action_check_balance
            next:
              - if: slots.balance > 100
                then:
                  - action: utter_rich
                    next: END
              - else:
                  - action: utter_poor
                    next: END
  `,
});

const balanceStub = (balance: number) => ({
  action_check_balance: { events: [{ event: 'slot', name: 'balance', value: balance }] },
});

describe('action step', () => {
  it('runs a response and records the action with the flow and step that asked for it', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('hi', [start('greet')]);
    expect(utterances(events).slice(0, 2)).to.deep.equal(['utter_greet', 'utter_bye']);
    const action = events.find((event) => event.event === 'action' && event.name === 'utter_greet');
    expect(action?.metadata).to.include({ active_flow: 'greet', step_id: 'greet_0_utter_greet' });
    const bot = events.find((event) => event.event === 'bot');
    expect(bot?.metadata).to.include({ utter_action: 'utter_greet' });
  });

  it('runs a custom action whose slot events decide the following branch', async () => {
    const rich = await startConversation(assistant, { stubs: balanceStub(500) });
    const richTurn = await rich.send('balance?', [start('check_balance')]);
    expect(actionNames(richTurn)).to.include('action_check_balance');
    expect(utterances(richTurn)[0]).to.equal('utter_rich');

    const poor = await startConversation(assistant, { stubs: balanceStub(5) });
    const poorTurn = await poor.send('balance?', [start('check_balance')]);
    expect(utterances(poorTurn)[0]).to.equal('utter_poor');
  });

  it('marks slots set by a custom action as filled by CUSTOM and keeps them when the flow ends', async () => {
    const conversation = await startConversation(assistant, { stubs: balanceStub(500) });
    const events = await conversation.send('balance?', [start('check_balance')]);
    const slot = events.find((event) => event.event === 'slot' && event.name === 'balance');
    expect(slot?.metadata).to.include({ filled_by: 'CUSTOM' });
    expect(flowEvents(events)).to.include('flow_completed check_balance');
    expect(slotValues(events, 'balance')).to.deep.equal([500]);
    expect((await conversation.slots())['balance']).to.equal(500);
  });

  it("sends a custom action's messages, both texts and named responses", async () => {
    const conversation = await startConversation(assistant, {
      stubs: {
        action_check_balance: {
          events: [{ event: 'slot', name: 'balance', value: 1 }],
          responses: [{ text: 'Checking your balance.' }, { response: 'utter_greet' }],
        },
      },
    });
    const events = await conversation.send('balance?', [start('check_balance')]);
    const bots = events.filter((event) => event.event === 'bot');
    expect(bots[0]).to.include({ text: 'Checking your balance.' });
    expect(bots[1]?.metadata).to.include({ utter_action: 'utter_greet' });
    expect(utterances(events)[2]).to.equal('utter_poor');
  });

  it('renders the action name with the frame context before running it', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('rich?', [start('rich')]);
    expect(utterances(events).slice(0, 2)).to.deep.equal(['utter_rich', 'utter_bye']);
  });

  it('skips an action whose name renders to nothing the domain knows and continues with the next step', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('bye', [start('farewell')]);
    expect(actionNames(events)).to.not.include('utter_farewell');
    expect(utterances(events)[0]).to.equal('utter_bye');
  });
});

import {
  inlineAssistant,
  startConversation,
  utterances,
  flowEvents,
  eventNames,
  slotEvents,
  stackFlows,
  actionNames,
} from './inline-assistant.js';
import type { Command } from '../../src/core/commands/types.js';

const domain = `
  slots:
    amount:
      type: float
    recipient:
      type: text
    confirm:
      type: bool
  responses:
    utter_ask_amount:
      - text: How much?
    utter_ask_recipient:
      - text: To whom?
    utter_ask_confirm:
      - text: Sure?
    utter_done:
      - text: Done.
    utter_hello:
      - text: Hello
`;
const flows = `
  flows:
    transfer_money:
      description: send money
      steps:
        - collect: recipient
        - collect: amount
        - collect: confirm
        - action: utter_done
    greet:
      description: say hello
      name: Say hello
      steps:
        - action: utter_hello
`;
describe('scratch', () => {
  it('explores', async () => {
    const a = inlineAssistant({ domain, flows });
    for (const [label, turns] of [
      ['knowledge+start', [[{ command: 'knowledge' }, { command: 'start flow', flow: 'transfer_money' }]]],
      ['knowledge alone', [[{ command: 'knowledge' }]]],
      [
        'restart',
        [
          [{ command: 'start flow', flow: 'transfer_money' }],
          [{ command: 'restart' }],
          [{ command: 'start flow', flow: 'greet' }],
        ],
      ],
      ['repeat', [[{ command: 'start flow', flow: 'transfer_money' }], [{ command: 'repeat' }]]],
      ['clarify', [[{ command: 'clarify', options: ['transfer_money', 'greet', 'nope'] }]]],
      ['handoff', [[{ command: 'human handoff' }]]],
      ['skip', [[{ command: 'start flow', flow: 'transfer_money' }], [{ command: 'skip question' }]]],
      ['skip-none', [[{ command: 'skip question' }]]],
      [
        'error',
        [
          [
            {
              command: 'error',
              error_type: 'rasa_internal_error_user_input_too_long',
              info: { max_characters: 3 },
            },
          ],
        ],
      ],
      ['session start', [[{ command: 'session start' }]]],
      [
        'chitchat in collect',
        [[{ command: 'start flow', flow: 'transfer_money' }], [{ command: 'chitchat' }]],
      ],
      [
        'resume',
        [[{ command: 'start flow', flow: 'transfer_money' }], [{ command: 'start flow', flow: 'greet' }]],
      ],
    ] as [string, Command[][]][]) {
      const c = await startConversation(a);
      console.log('=====', label);
      for (const cmds of turns) {
        const ev = await c.send('x', cmds);
        console.log(eventNames(ev).join(' '));
        console.log(
          'actions',
          actionNames(ev).join(','),
          'utters',
          utterances(ev),
          'flows',
          flowEvents(ev),
          'slots',
          JSON.stringify(slotEvents(ev)),
        );
        for (const e of ev)
          if (e.event === 'flow_started' && e.flow_id.startsWith('pattern_'))
            console.log('  meta', e.flow_id, JSON.stringify(e.metadata));
        console.log('stack', stackFlows(await c.stack()));
      }
    }
  });
});

import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  actionNames,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      member:
        type: bool
    responses:
      utter_member:
        - text: Welcome back.
      utter_guest:
        - text: Welcome, guest.
      utter_bye:
        - text: Bye.
  `,
  flows: `
    flows:
      welcome:
        description: Welcome members and guests differently.
        steps:
          - noop: true
            next:
              - if: slots.member
                then:
                  - action: utter_member
                    next: bye
              - else:
                  - action: utter_guest
                    next: bye
          - id: bye
            action: utter_bye
  `,
});

const start: Command = { command: 'start flow', flow: 'welcome' };

describe('noop step', () => {
  it('runs no action and only routes to a branch', async () => {
    const member = await startConversation(assistant);
    await member.append([{ event: 'slot', name: 'member', value: true }]);
    const events = await member.send('hi', [start]);
    expect(utterances(events).slice(0, 2)).to.deep.equal(['utter_member', 'utter_bye']);
    expect(
      actionNames(events)
        .filter((name) => name.startsWith('utter_'))
        .slice(0, 2),
    ).to.deep.equal(['utter_member', 'utter_bye']);
  });

  it('takes the else branch when the condition is false', async () => {
    const guest = await startConversation(assistant);
    const events = await guest.send('hi', [start]);
    expect(utterances(events).slice(0, 2)).to.deep.equal(['utter_guest', 'utter_bye']);
  });
});

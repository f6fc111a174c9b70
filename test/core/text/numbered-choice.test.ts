import { expect } from 'chai';
import { applyEvent, createTrackerState } from '../../../src/core/events/index.js';
import type { BotUttered, Event } from '../../../src/core/events/types.js';
import { numberedChoice } from '../../../src/core/text/numbered-choice.js';

const buttons = (...titles: string[]) =>
  titles.map((title) => ({ title, payload: `/SetSlots(account=${title.toLowerCase()})` }));
const bot = (text: string, offered: ReturnType<typeof buttons> = []): BotUttered => ({
  event: 'bot',
  text,
  data: offered.length > 0 ? { buttons: offered } : {},
  timestamp: 1,
});
const user = (text: string): Event => ({
  event: 'user',
  text,
  timestamp: 1,
  parse_data: { text, intent: { name: null, confidence: 0 }, entities: [] },
});
const after = (...events: Event[]) =>
  events.reduce(applyEvent, createTrackerState({ senderId: 's', initialSlots: {} }));

describe('numberedChoice (a number answering buttons)', () => {
  it('picks the numbered button of the latest message that offered buttons since the user spoke', () => {
    const state = after(user('hi'), bot('Which account?', buttons('Checking', 'Savings')), bot('Pick one.'));
    expect(numberedChoice('2', state)).to.equal('/SetSlots(account=savings)');
    expect(numberedChoice(' 1. ', state)).to.equal('/SetSlots(account=checking)');
    expect(numberedChoice('1)', state)).to.equal('/SetSlots(account=checking)');
  });

  it('numbers quick replies after the buttons, as the text renderings list them', () => {
    const withReplies: BotUttered = {
      ...bot('Which account?', buttons('Checking')),
      data: {
        buttons: buttons('Checking'),
        quick_replies: [{ title: 'Savings', payload: '/savings' }, 'junk'],
      },
    };
    const state = after(user('hi'), withReplies);
    expect(numberedChoice('1', state)).to.equal('/SetSlots(account=checking)');
    expect(numberedChoice('2', state)).to.equal('/savings');
    expect(numberedChoice('3', state)).to.equal(undefined);
  });

  it('leaves other texts, numbers out of range and turns without buttons alone', () => {
    const offered = after(user('hi'), bot('Which account?', buttons('Checking', 'Savings')));
    expect(numberedChoice('3', offered)).to.equal(undefined);
    expect(numberedChoice('0', offered)).to.equal(undefined);
    expect(numberedChoice('2 please', offered)).to.equal(undefined);
    expect(numberedChoice('12.5', offered)).to.equal(undefined);
    // once the user has spoken, earlier buttons no longer count
    expect(numberedChoice('2', after(user('hi'), bot('Which?', buttons('A', 'B')), user('A')))).to.equal(
      undefined,
    );
  });
});

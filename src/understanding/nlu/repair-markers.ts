import { words } from './slot-values/normalise.js';

/**
 * The words that make a conversation repair explicit. The classifier may lean towards a repair intent for
 * any short message ("I lost it" sounds like "forget it", "yes, please" like "human please"); only a
 * message that says the repair in so many words overrides an answer to the question being asked. Out of
 * scope and chitchat have no markers: they never override an answer.
 */
const MARKERS: Readonly<Record<string, readonly string[]>> = {
  parley_cancel: [
    'cancel',
    'stop',
    'abort',
    'quit',
    'never mind',
    'nevermind',
    'forget it',
    'forget about it',
    'changed my mind',
    'scrap that',
    'drop it',
    'dont want to do this',
    'rather not continue',
    'lets not',
  ],
  parley_skip_question: ['skip', 'pass', 'next question', 'move on', 'rather not say', 'dont want to answer'],
  parley_human_handoff: [
    'human',
    'person',
    'agent',
    'representative',
    'operator',
    'someone',
    'somebody',
    'customer service',
    'real person',
  ],
  parley_restart: [
    'restart',
    'start over',
    'start again',
    'begin again',
    'from scratch',
    'start fresh',
    'reset',
  ],
  parley_repeat: [
    'repeat',
    'say that again',
    'say it again',
    'pardon',
    'come again',
    'didnt catch',
    'what was that',
    'what did you say',
    'one more time',
    'missed that',
    'huh',
  ],
};

/** Whether the message names the repair its predicted intent stands for ("stop", "a human please"). */
export function isExplicitRepair(intent: string, text: string): boolean {
  const markers = MARKERS[intent];
  if (!markers) return false;
  const padded = ` ${words(text).join(' ')} `;
  return markers.some((marker) => padded.includes(` ${marker} `));
}

import type { LabelledExample } from '../../../src/understanding/nlu/classifier/index.js';

/** A small, clearly separable data set: four intents, eight examples each. */
export const SYNTHETIC: readonly LabelledExample[] = [
  ...examples('greet', [
    'hello there',
    'hi',
    'good morning',
    'hey, how are you',
    'hello',
    'good evening to you',
    'hi there friend',
    'hey hey',
  ]),
  ...examples('check_balance', [
    'what is my balance',
    'how much money do I have',
    'show my account balance',
    'balance please',
    'what is left in my account',
    'how much is in my savings account',
    'tell me my current balance',
    'check my balance',
  ]),
  ...examples('transfer_money', [
    'send money to my friend',
    'transfer 50 pounds to John',
    'I want to make a transfer',
    'move money to savings',
    'pay my sister 20 euros',
    'wire money abroad',
    'transfer funds between accounts',
    'send 100 dollars to Alice',
  ]),
  ...examples('goodbye', [
    'bye',
    'goodbye',
    'see you later',
    'talk to you soon',
    'bye bye',
    'have a nice day, bye',
    'see you',
    "that's all, goodbye",
  ]),
];

function examples(intent: string, texts: readonly string[]): LabelledExample[] {
  return texts.map((text) => ({ text, intent }));
}

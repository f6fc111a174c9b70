import { expect } from 'chai';
import { boolFromText } from '../../../src/understanding/nlu/slot-values/index.js';

describe('bool slots from free text', () => {
  const yes = [
    'yes',
    'Yes!',
    'yes please',
    'yeah',
    'yep',
    'sure',
    'yeah, sure',
    'correct',
    "that's right",
    'ok',
    'true',
    '1',
    'of course',
    'sure, why not',
    'absolutely, thanks',
  ];
  const no = [
    'no',
    'No.',
    'no thanks',
    'nope',
    'nah',
    'not really',
    'no way',
    'false',
    '0',
    'definitely not',
    "I don't",
    'no, thank you',
  ];
  const unclear = [
    'cancel that',
    'maybe',
    'not sure',
    'yes and no',
    'no, yes',
    "I don't know",
    'what?',
    'yes, cancel it',
    '',
    'sure thing, but later',
  ];

  for (const text of yes) it(`reads "${text}" as true`, () => expect(boolFromText(text)).to.equal(true));
  for (const text of no) it(`reads "${text}" as false`, () => expect(boolFromText(text)).to.equal(false));
  for (const text of unclear)
    it(`leaves "${text}" unfilled`, () => expect(boolFromText(text)).to.equal(undefined));
});

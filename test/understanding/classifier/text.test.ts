import { expect } from 'chai';
import { charGrams, blockGrams } from '../../../src/understanding/nlu/classifier/ngrams.js';
import { porterStem } from '../../../src/understanding/nlu/classifier/porter.js';
import { normaliseText, tokenise } from '../../../src/understanding/nlu/classifier/text.js';

describe('classifier text handling', () => {
  it('lower-cases, applies NFKC and folds typographic apostrophes', () => {
    expect(normaliseText('ＣＡＲＤ Ｎo. ①')).to.equal('card no. 1');
    expect(normaliseText('Hasn’t')).to.equal("hasn't");
  });

  it('splits letter/digit runs keeping apostrophe suffixes, and single punctuation marks', () => {
    expect(tokenise("I'm still waiting, my card hasn’t arrived!?")).to.deep.equal([
      "i'm",
      'still',
      'waiting',
      ',',
      'my',
      'card',
      "hasn't",
      'arrived',
      '!',
      '?',
    ]);
    expect(tokenise('Top-up £20 (café)')).to.deep.equal(['top', '-', 'up', '£', '20', '(', 'café', ')']);
  });

  it('makes word unigrams and bigrams framed by start and end markers', () => {
    const block = {
      kind: 'word',
      minNgram: 1,
      maxNgram: 2,
      weight: 1,
      minDf: 1,
      maxFeatures: 100,
      maskNumbers: false,
      stem: false,
    } as const;
    expect(blockGrams(block, ['lost', 'card'])).to.deep.equal([
      'lost',
      'card',
      '<s> lost',
      'lost card',
      'card </s>',
    ]);
  });

  it('stems words with the Porter algorithm when asked', () => {
    const block = {
      kind: 'word',
      minNgram: 1,
      maxNgram: 1,
      weight: 1,
      minDf: 1,
      maxFeatures: 100,
      maskNumbers: true,
      stem: true,
    } as const;
    expect(blockGrams(block, ['charged', 'cards', '20'])).to.deep.equal(['charg', 'card', '20', '<num>']);
    const pairs = {
      caresses: 'caress',
      ponies: 'poni',
      hopping: 'hop',
      relational: 'relat',
      adoption: 'adopt',
    };
    for (const [word, stem] of Object.entries(pairs)) expect(porterStem(word)).to.equal(stem);
  });

  it('makes char_wb n-grams inside each space-padded word, a short word only once', () => {
    expect(charGrams(' hi ', 3, 5)).to.deep.equal([' hi', 'hi ', ' hi ']);
    expect(charGrams(' a ', 3, 5)).to.deep.equal([' a ']);
    const block = {
      kind: 'char',
      analyzer: 'char_wb',
      minNgram: 3,
      maxNgram: 3,
      weight: 1,
      minDf: 1,
      maxFeatures: 100,
    } as const;
    expect(blockGrams(block, ['ab', 'cd'])).to.deep.equal([' ab', 'ab ', ' cd', 'cd ']);
    expect(blockGrams({ ...block, analyzer: 'char' }, ['ab', 'cd'])).to.deep.equal([
      ' ab',
      'ab ',
      'b c',
      ' cd',
      'cd ',
    ]);
  });
});

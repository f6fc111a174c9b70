import { expect } from 'chai';
import {
  deserializeIntentClassifier,
  trainIntentClassifier,
} from '../../../src/understanding/nlu/classifier/index.js';
import type { TrainingProgress } from '../../../src/understanding/nlu/progress.js';
import { SYNTHETIC } from './synthetic.js';

describe('intent classifier bytes', () => {
  it('read from a Node Buffer (whose slice() shares memory) predict exactly as the original', () => {
    const classifier = trainIntentClassifier(SYNTHETIC, { seed: 7 });
    // base64 is how the model archive carries the classifier; decoding it gives a Buffer
    const bytes = Buffer.from(Buffer.from(classifier.serialize()).toString('base64'), 'base64');
    const loaded = deserializeIntentClassifier(bytes);
    for (const text of ['could you tell me my balance', 'please send 30 pounds to Bob', 'hello'])
      expect(loaded.probabilities(text)).to.deep.equal(classifier.probabilities(text));
  });

  it('report each training phase as it starts, without changing the model', () => {
    const heard: TrainingProgress[] = [];
    const watched = trainIntentClassifier(SYNTHETIC, { seed: 7 }, (progress) => heard.push(progress));
    expect(
      heard.map((progress) => [progress.phase, progress.step, progress.steps, progress.detail]),
    ).to.deep.equal([
      ['features', 1, 1, undefined],
      ['classifier', 1, 4, 'linear'],
      ['classifier', 2, 4, 'mlp'],
      ['classifier', 3, 4, 'mlp'],
      ['classifier', 4, 4, 'mlp'],
    ]);
    const unwatched = trainIntentClassifier(SYNTHETIC, { seed: 7 });
    expect(watched.serialize()).to.deep.equal(unwatched.serialize());
  });
});

import { expect } from 'chai';
import {
  ClassifierError,
  deserializeIntentClassifier,
  trainIntentClassifier,
} from '../../../src/understanding/nlu/classifier/index.js';
import { SYNTHETIC } from './synthetic.js';

describe('intent classifier', () => {
  const classifier = trainIntentClassifier(SYNTHETIC, { seed: 7 });

  it('learns a small separable data set perfectly', () => {
    for (const example of SYNTHETIC) expect(classifier.predict(example.text).intent).to.equal(example.intent);
    expect(classifier.predict('could you tell me my balance').intent).to.equal('check_balance');
    expect(classifier.predict('please send 30 pounds to Bob').intent).to.equal('transfer_money');
  });

  it('learns it too with a Crammer–Singer SVM member, refitting after calibration', () => {
    const svm = trainIntentClassifier(SYNTHETIC, {
      seed: 2,
      refit: true,
      members: [
        {
          kind: 'linear',
          loss: 'hinge',
          epochs: 15,
          minSteps: 0,
          maxEpochs: 15,
          maxSteps: 1e6,
          learningRate: 1,
          decay: 0,
          tolerance: 0,
        },
      ],
    });
    for (const example of SYNTHETIC) expect(svm.predict(example.text).intent).to.equal(example.intent);
    expect(svm.members[0]!.temperature).to.not.equal(1);
  });

  it('keeps temperature 1 without a calibration slice', () => {
    const uncalibrated = trainIntentClassifier(SYNTHETIC, { seed: 2, calibrationShare: 0 });
    expect(uncalibrated.members.map((member) => member.temperature)).to.deep.equal([1, 1, 1, 1]);
  });

  it('ranks intents best first with calibrated confidences that sum to at most 1', () => {
    const { ranking, confidence, intent } = classifier.predict('hello!');
    expect(ranking[0]).to.deep.equal({ intent, confidence });
    for (let at = 1; at < ranking.length; at += 1)
      expect(ranking[at - 1]!.confidence).to.be.at.least(ranking[at]!.confidence);
    const total = ranking.reduce((sum, score) => sum + score.confidence, 0);
    expect(total).to.be.closeTo(1, 1e-9);
  });

  it('gives the same model for the same seed, and another for another seed', () => {
    const again = trainIntentClassifier(SYNTHETIC, { seed: 7 });
    expect(Buffer.from(again.serialize()).equals(Buffer.from(classifier.serialize()))).to.equal(true);
    const other = trainIntentClassifier(SYNTHETIC, { seed: 8 });
    expect(Buffer.from(other.serialize()).equals(Buffer.from(classifier.serialize()))).to.equal(false);
  });

  it('predicts exactly the same after a serialisation round trip', () => {
    const restored = deserializeIntentClassifier(classifier.serialize());
    for (const text of ['hi there', 'what do I have left', 'wire 5 euros', 'ok bye', 'the weather']) {
      expect(restored.predict(text)).to.deep.equal(classifier.predict(text));
    }
    const unquantised = trainIntentClassifier(SYNTHETIC, { seed: 7, quantise: false });
    const back = deserializeIntentClassifier(unquantised.serialize());
    expect(back.predict('hey')).to.deep.equal(unquantised.predict('hey'));
  });

  it('refuses bytes that are not a model', () => {
    expect(() => deserializeIntentClassifier(new Uint8Array([1, 2, 3])))
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_BAD_MODEL');
    const bytes = classifier.serialize();
    expect(() => deserializeIntentClassifier(bytes.subarray(0, bytes.length - 100)))
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_BAD_MODEL');
  });

  it('refuses to train without examples', () => {
    expect(() => trainIntentClassifier([]))
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_NO_TRAINING_DATA');
  });
});

describe('intent classifier: out of scope', () => {
  const fallback = { threshold: 0.9, ambiguityThreshold: 0, intent: 'nlu_fallback' };

  it('answers the fallback intent below the threshold, keeping the ranking', () => {
    const strict = trainIntentClassifier(SYNTHETIC, { seed: 3, fallback });
    const prediction = strict.predict('what is the capital of peru');
    expect(prediction).to.include({ intent: 'nlu_fallback', confidence: 0.9, outOfScope: true });
    expect(prediction.ranking).to.have.length(4);
  });

  it('is unsure about a message made of words it has never seen (default threshold 0.3)', () => {
    const prediction = trainIntentClassifier(SYNTHETIC, { seed: 3 }).predict('xyzzy plugh');
    expect(prediction).to.include({ intent: 'nlu_fallback', outOfScope: true });
    expect(prediction.ranking[0]!.confidence).to.be.closeTo(0.25, 1e-9);
  });

  it('answers the fallback intent when the top two are closer than the ambiguity threshold', () => {
    const ambiguous = trainIntentClassifier(SYNTHETIC, {
      seed: 3,
      fallback: { threshold: 0, ambiguityThreshold: 1, intent: 'nlu_fallback' },
    });
    expect(ambiguous.predict('hello').intent).to.equal('nlu_fallback');
  });

  it('never falls back without a fallback', () => {
    const open = trainIntentClassifier(SYNTHETIC, { seed: 3, fallback: undefined });
    const prediction = open.predict('what is the capital of peru');
    expect(prediction.outOfScope).to.equal(false);
    expect(prediction.intent).to.not.equal('nlu_fallback');
  });

  it('treats a trained out-of-scope intent as out of scope, without an example from its name', () => {
    const withOos = [
      ...SYNTHETIC,
      ...['what is the weather', 'tell me a joke', 'who won the football', 'play some music'].map((text) => ({
        text,
        intent: 'oos',
      })),
    ];
    const trained = trainIntentClassifier(withOos, { seed: 3, fallback: undefined });
    const prediction = trained.predict('tell me a funny joke');
    expect(prediction).to.include({ intent: 'oos', outOfScope: true });
    expect(trained.predict('oos').intent).to.not.equal('oos');
  });
});

import { expect } from 'chai';
import { fitTemperature } from '../../../src/understanding/nlu/classifier/calibration.js';
import { DEFAULT_OPTIONS } from '../../../src/understanding/nlu/classifier/index.js';
import { epochsFor } from '../../../src/understanding/nlu/classifier/members.js';
import { softmaxInPlace } from '../../../src/understanding/nlu/classifier/linear.js';
import {
  accuracy,
  macroF1,
  OUT_OF_SCOPE,
  outOfScopeScores,
  percentile,
} from '../../../src/understanding/nlu/classifier/metrics.js';
import { dequantiseRows, quantiseRows } from '../../../src/understanding/nlu/classifier/quantise.js';
import { createRandom } from '../../../src/understanding/nlu/classifier/random.js';
import { featurise, fitVectoriser, vectorise } from '../../../src/understanding/nlu/classifier/vectoriser.js';
import type { FeatureBlock } from '../../../src/understanding/nlu/classifier/ngrams.js';

const WORD: FeatureBlock = {
  kind: 'word',
  minNgram: 1,
  maxNgram: 1,
  weight: 0.6,
  minDf: 1,
  maxFeatures: 100,
  maskNumbers: false,
  stem: false,
};
const CHAR: FeatureBlock = {
  kind: 'char',
  analyzer: 'char_wb',
  minNgram: 3,
  maxNgram: 3,
  weight: 0.8,
  minDf: 1,
  maxFeatures: 100,
};

describe('classifier features', () => {
  const documents = [
    ['my', 'card'],
    ['my', 'balance'],
    ['card', 'card', 'lost'],
  ];

  it('uses smoothed IDF and sublinear TF, each block L2-normalised to its weight', () => {
    const vectoriser = fitVectoriser([WORD, CHAR], documents, false);
    const my = vectoriser.vocabularies[0]!.get('my')!;
    expect(vectoriser.idf[my]).to.be.closeTo(Math.log(4 / 3) + 1, 1e-6);
    const vector = vectorise(vectoriser, ['card', 'card', 'lost']);
    const wordSize = vectoriser.vocabularies[0]!.size;
    let word = 0;
    let char = 0;
    vector.values.forEach((value, at) =>
      vector.indices[at]! < wordSize ? (word += value ** 2) : (char += value ** 2),
    );
    expect(Math.sqrt(word)).to.be.closeTo(0.6, 1e-6);
    expect(Math.sqrt(char)).to.be.closeTo(0.8, 1e-6);
    const card = vectoriser.vocabularies[0]!.get('card')!;
    const lost = vectoriser.vocabularies[0]!.get('lost')!;
    const valueOf = (index: number) => vector.values[Array.from(vector.indices).indexOf(index)]!;
    const ratio = ((1 + Math.log(2)) * vectoriser.idf[card]!) / vectoriser.idf[lost]!;
    expect(valueOf(card) / valueOf(lost)).to.be.closeTo(ratio, 1e-5);
  });

  it('raises the document-frequency cut until a block fits max_features', () => {
    const vectoriser = fitVectoriser([{ ...WORD, maxFeatures: 2 }], documents, false);
    expect([...vectoriser.vocabularies[0]!.keys()]).to.deep.equal(['my', 'card']);
  });

  it('measures how much of a message the vocabulary covers when unseen n-grams count', () => {
    const counting = fitVectoriser([WORD], documents, true);
    expect(featurise(counting, ['my', 'card']).coverage).to.equal(1);
    expect(featurise(counting, ['my', 'zebra', 'giraffe']).coverage).to.be.within(0.2, 0.5);
    expect(featurise(counting, ['zebra']).coverage).to.equal(0);
    expect(featurise(fitVectoriser([WORD], documents, false), ['my', 'zebra']).coverage).to.equal(1);
  });
});

describe('classifier numerics', () => {
  it('gives small data sets more epochs and large ones fewer', () => {
    const mlp = DEFAULT_OPTIONS.members.find((member) => member.kind === 'mlp')!;
    expect(epochsFor(mlp, 9_000)).to.equal(mlp.epochs);
    expect(epochsFor(mlp, 1_000)).to.equal(30);
    expect(epochsFor(mlp, 100)).to.equal(mlp.maxEpochs);
    expect(epochsFor(mlp, 50_000)).to.equal(2);
    expect(epochsFor(mlp, 500_000)).to.equal(1);
  });

  it('recovers the temperature that generated the labels', () => {
    const random = createRandom(5);
    const rows = 4000;
    const logits = new Float64Array(rows * 3);
    const labels = new Int32Array(rows);
    const probabilities = new Float64Array(3);
    for (let row = 0; row < rows; row += 1) {
      for (let c = 0; c < 3; c += 1) probabilities[c] = logits[row * 3 + c] = 4 * random.next();
      softmaxInPlace(probabilities, 2);
      const draw = random.next();
      labels[row] = draw < probabilities[0]! ? 0 : draw < probabilities[0]! + probabilities[1]! ? 1 : 2;
    }
    expect(fitTemperature(logits, labels, 3)).to.be.closeTo(2, 0.25);
  });

  it('quantises rows to 8 bits with power-of-two scales, exactly reproducible', () => {
    const weights = Float32Array.from([0.5, -0.25, 0.001, 3, 0, 0, 0, 0, -7e-5, 1e-5, 2e-5, 0]);
    const once = dequantiseRows(quantiseRows(weights, 4));
    for (let at = 0; at < 4; at += 1) expect(once[at]).to.be.closeTo(weights[at]!, 3 / 127);
    expect(Array.from(once.slice(4, 8))).to.deep.equal([0, 0, 0, 0]);
    expect(dequantiseRows(quantiseRows(once, 4))).to.deep.equal(once);
  });

  it('scores accuracy, macro-F1, out-of-scope recall and precision, and percentiles', () => {
    const outcome = (gold: string, predicted: string) => ({
      gold,
      predicted,
      top: predicted,
      first: predicted,
      confidence: 1,
    });
    const outcomes = [
      outcome('a', 'a'),
      outcome('a', 'b'),
      outcome('b', 'b'),
      outcome(OUT_OF_SCOPE, OUT_OF_SCOPE),
      outcome(OUT_OF_SCOPE, 'a'),
    ];
    expect(accuracy(outcomes)).to.equal(0.6);
    // F1 = 2TP / (predicted + actual): a 2/4, b 2/3, out of scope 2/3
    expect(macroF1(outcomes)).to.be.closeTo((0.5 + 2 / 3 + 2 / 3) / 3, 1e-12);
    expect(outOfScopeScores(outcomes)).to.deep.equal({
      examples: 2,
      recall: 0.5,
      precision: 1,
      inScopeAccuracy: 2 / 3,
    });
    expect(outOfScopeScores(outcomes.slice(0, 3))).to.equal(undefined);
    expect(percentile([5, 1, 4, 2, 3], 0.5)).to.equal(3);
    expect(percentile([5, 1, 4, 2, 3], 0.99)).to.equal(5);
  });
});

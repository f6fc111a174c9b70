import { expect } from 'chai';
import {
  ClassifierError,
  classifierOptionsFromPipeline,
  DEFAULT_OPTIONS,
} from '../../../src/understanding/nlu/classifier/index.js';

describe('classifier options from a Rasa pipeline', () => {
  it('makes one feature block per CountVectorsFeaturizer, with its analyzer and n-gram range', () => {
    const options = classifierOptionsFromPipeline([
      { name: 'WhitespaceTokenizer', options: {} },
      { name: 'CountVectorsFeaturizer', options: {} },
      { name: 'CountVectorsFeaturizer', options: { analyzer: 'char_wb', min_ngram: 2, max_ngram: 4 } },
    ]);
    expect(options.blocks).to.have.length(2);
    expect(options.blocks[0]).to.include({ kind: 'word', minNgram: 1, maxNgram: 2 });
    expect(options.blocks[1]).to.include({ kind: 'char', analyzer: 'char_wb', minNgram: 2, maxNgram: 4 });
    expect(options.blocks[0]!.weight).to.be.closeTo(Math.SQRT1_2, 1e-12);
  });

  it("uses Parley's blocks and ensemble without featurizers or with DIETClassifier", () => {
    const options = classifierOptionsFromPipeline([{ name: 'DIETClassifier', options: { random_seed: 9 } }]);
    expect(options.blocks).to.deep.equal(DEFAULT_OPTIONS.blocks);
    expect(options.members).to.deep.equal(DEFAULT_OPTIONS.members);
    expect(options.seed).to.equal(9);
  });

  it('makes LogisticRegressionClassifier a single logistic regression', () => {
    const options = classifierOptionsFromPipeline([
      { name: 'LogisticRegressionClassifier', options: { random_state: 4 } },
    ]);
    expect(options.members.map((member) => member.kind)).to.deep.equal(['linear']);
    expect(options.seed).to.equal(4);
  });

  it("takes FallbackClassifier's threshold and ambiguity_threshold (Rasa's defaults 0.3 and 0.1)", () => {
    const given = classifierOptionsFromPipeline([
      { name: 'FallbackClassifier', options: { threshold: 0.6, ambiguity_threshold: 0.05 } },
    ]);
    expect(given.fallback).to.deep.equal({
      threshold: 0.6,
      ambiguityThreshold: 0.05,
      intent: 'nlu_fallback',
    });
    const defaults = classifierOptionsFromPipeline([{ name: 'FallbackClassifier', options: {} }]);
    expect(defaults.fallback).to.include({ threshold: 0.3, ambiguityThreshold: 0.1 });
  });

  it('refuses an unknown analyzer and out-of-range values', () => {
    expect(() =>
      classifierOptionsFromPipeline([{ name: 'CountVectorsFeaturizer', options: { analyzer: 'x' } }]),
    )
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_BAD_OPTION');
    expect(() => classifierOptionsFromPipeline([{ name: 'FallbackClassifier', options: { threshold: 3 } }]))
      .to.throw(ClassifierError)
      .with.property('code', 'NLU_BAD_OPTION');
  });
});

import type { LinearLoss } from './linear.js';
import type { FeatureBlock } from './ngrams.js';

/** One member of the ensemble; members' calibrated probabilities are averaged. */
export type MemberOptions = LinearMemberOptions | MlpMemberOptions;

export interface LinearMemberOptions {
  readonly kind: 'linear';
  readonly loss: LinearLoss;
  readonly epochs: number;
  /** Small data sets get more epochs: enough for `minSteps` SGD steps, up to `maxEpochs`. */
  readonly minSteps: number;
  readonly maxEpochs: number;
  /** Large data sets get fewer epochs (at least one), to keep training time bounded. */
  readonly maxSteps: number;
  readonly learningRate: number;
  readonly decay: number;
  readonly tolerance: number;
}

export interface MlpMemberOptions {
  readonly kind: 'mlp';
  readonly hidden: number;
  readonly epochs: number;
  readonly minSteps: number;
  readonly maxEpochs: number;
  readonly maxSteps: number;
  readonly learningRate: number;
  readonly dropout: number;
  readonly initScale: number;
}

export interface FallbackOptions {
  /** Below this top confidence the prediction is `nlu_fallback` (Rasa's FallbackClassifier `threshold`). */
  readonly threshold: number;
  /** Also `nlu_fallback` when the top two confidences are closer than this (`ambiguity_threshold`). */
  readonly ambiguityThreshold: number;
  readonly intent: string;
}

export interface ClassifierOptions {
  readonly seed: number;
  readonly blocks: readonly FeatureBlock[];
  readonly members: readonly MemberOptions[];
  /** Unseen n-grams count in each block's norm, so mostly-unknown messages get low confidence. */
  readonly countUnseen: boolean;
  /** Each intent's name (`card_arrival` → "card arrival") is added this many times as an example. */
  readonly intentNameExamples: number;
  /** Share of each intent's examples held out to fit the softmax temperatures (0 disables calibration). */
  readonly calibrationShare: number;
  /** After calibrating, train again on every example (the temperatures are kept). */
  readonly refit: boolean;
  readonly fallback: FallbackOptions | undefined;
  /** Training labels that mean "out of scope": predicting one of them is an out-of-scope answer. */
  readonly outOfScopeIntents: readonly string[];
  /** Store weights as 8-bit integers with one scale per row (4x smaller, no measurable accuracy loss). */
  readonly quantise: boolean;
}

/** Labels that mean "out of scope" in Rasa data (`out_of_scope`, `nlu_fallback`) and benchmarks (`oos`). */
export const OUT_OF_SCOPE_INTENTS: readonly string[] = ['out_of_scope', 'oos', 'nlu_fallback'];

export const DEFAULT_BLOCKS: readonly FeatureBlock[] = [
  {
    kind: 'word',
    minNgram: 1,
    maxNgram: 2,
    weight: Math.SQRT1_2,
    minDf: 1,
    maxFeatures: 12_000,
    maskNumbers: false,
    stem: true,
  },
  {
    kind: 'char',
    analyzer: 'char_wb',
    minNgram: 3,
    maxNgram: 5,
    weight: Math.SQRT1_2,
    minDf: 2,
    maxFeatures: 12_000,
  },
];

const LOGISTIC: LinearMemberOptions = {
  kind: 'linear',
  loss: 'logistic',
  epochs: 10,
  minSteps: 30_000,
  maxEpochs: 30,
  maxSteps: 100_000,
  learningRate: 4,
  decay: 0.5,
  tolerance: 1e-4,
};
const MLP: MlpMemberOptions = {
  kind: 'mlp',
  hidden: 256,
  epochs: 10,
  minSteps: 30_000,
  maxEpochs: 30,
  maxSteps: 100_000,
  learningRate: 0.2,
  dropout: 0.5,
  initScale: 0.1,
};

export const DEFAULT_MEMBERS: readonly MemberOptions[] = [LOGISTIC, MLP, MLP, MLP];

export const DEFAULT_OPTIONS: ClassifierOptions = {
  seed: 1,
  blocks: DEFAULT_BLOCKS,
  members: DEFAULT_MEMBERS,
  countUnseen: true,
  intentNameExamples: 3,
  calibrationShare: 0.1,
  refit: false,
  fallback: { threshold: 0.3, ambiguityThreshold: 0, intent: 'nlu_fallback' },
  outOfScopeIntents: OUT_OF_SCOPE_INTENTS,
  quantise: true,
};

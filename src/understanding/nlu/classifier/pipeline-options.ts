import { ClassifierError } from './errors.js';
import type { FeatureBlock } from './ngrams.js';
import { DEFAULT_BLOCKS, DEFAULT_MEMBERS, DEFAULT_OPTIONS } from './options.js';
import type { ClassifierOptions, FallbackOptions, MemberOptions } from './options.js';

/** A `pipeline:` entry of config.yml. */
export interface PipelineComponent {
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

const RASA_FALLBACK = { threshold: 0.3, ambiguityThreshold: 0.1 };
const LINEAR_ONLY = DEFAULT_MEMBERS.filter((member) => member.kind === 'linear');

/**
 * Classifier options from a Rasa pipeline:
 * - each `CountVectorsFeaturizer` is a feature block (`analyzer` word, char or char_wb; `min_ngram`,
 *   `max_ngram`, `min_df`, `max_features`); without any, Parley's default blocks;
 * - `LogisticRegressionClassifier` is a single logistic regression, `DIETClassifier` (or no classifier)
 *   Parley's ensemble; `random_state` / `random_seed` is the seed;
 * - `FallbackClassifier` sets `threshold` and `ambiguity_threshold` (Rasa's defaults 0.3 and 0.1).
 */
export function classifierOptionsFromPipeline(pipeline: readonly PipelineComponent[]): ClassifierOptions {
  const featurizers = pipeline.filter((component) => component.name === 'CountVectorsFeaturizer');
  const blocks =
    featurizers.length > 0
      ? featurizers.map((component) => blockFrom(component, featurizers.length))
      : DEFAULT_BLOCKS;
  const classifier = pipeline.find((component) => CLASSIFIERS.has(component.name));
  const fallback = pipeline.find((component) => component.name === 'FallbackClassifier');
  return {
    ...DEFAULT_OPTIONS,
    blocks,
    members: membersFor(classifier),
    seed: seedOf(classifier) ?? DEFAULT_OPTIONS.seed,
    fallback: fallback ? fallbackFrom(fallback) : DEFAULT_OPTIONS.fallback,
  };
}

const CLASSIFIERS = new Set(['LogisticRegressionClassifier', 'DIETClassifier']);

function membersFor(classifier: PipelineComponent | undefined): readonly MemberOptions[] {
  return classifier?.name === 'LogisticRegressionClassifier' ? LINEAR_ONLY : DEFAULT_MEMBERS;
}

function seedOf(classifier: PipelineComponent | undefined): number | undefined {
  const seed = classifier?.options['random_state'] ?? classifier?.options['random_seed'];
  return typeof seed === 'number' && Number.isInteger(seed) ? seed : undefined;
}

function blockFrom(component: PipelineComponent, count: number): FeatureBlock {
  const options = component.options;
  const analyzer = options['analyzer'] ?? 'word';
  const weight = 1 / Math.sqrt(count);
  if (analyzer === 'word') {
    const base = DEFAULT_BLOCKS.find((block) => block.kind === 'word');
    const word = base?.kind === 'word' ? base : undefined;
    return {
      kind: 'word',
      minNgram: integer(options, 'min_ngram', word?.minNgram ?? 1),
      maxNgram: integer(options, 'max_ngram', word?.maxNgram ?? 2),
      weight,
      minDf: integer(options, 'min_df', word?.minDf ?? 1),
      maxFeatures: integer(options, 'max_features', word?.maxFeatures ?? 12_000),
      maskNumbers: false,
      stem: word?.stem ?? true,
    };
  }
  if (analyzer !== 'char' && analyzer !== 'char_wb')
    throw new ClassifierError(
      'NLU_BAD_OPTION',
      `CountVectorsFeaturizer: unknown analyzer '${String(analyzer)}'.`,
    );
  const char = DEFAULT_BLOCKS.find((block) => block.kind === 'char');
  return {
    kind: 'char',
    analyzer,
    minNgram: integer(options, 'min_ngram', char?.minNgram ?? 3),
    maxNgram: integer(options, 'max_ngram', char?.maxNgram ?? 5),
    weight,
    minDf: integer(options, 'min_df', char?.minDf ?? 2),
    maxFeatures: integer(options, 'max_features', char?.maxFeatures ?? 12_000),
  };
}

function fallbackFrom(component: PipelineComponent): FallbackOptions {
  return {
    threshold: fraction(component.options, 'threshold', RASA_FALLBACK.threshold),
    ambiguityThreshold: fraction(component.options, 'ambiguity_threshold', RASA_FALLBACK.ambiguityThreshold),
    intent: 'nlu_fallback',
  };
}

function integer(options: Readonly<Record<string, unknown>>, key: string, fallback: number): number {
  const value = options[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw new ClassifierError(
    'NLU_BAD_OPTION',
    `'${key}' must be a positive whole number, not ${JSON.stringify(value)}.`,
  );
}

function fraction(options: Readonly<Record<string, unknown>>, key: string, fallback: number): number {
  const value = options[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  throw new ClassifierError(
    'NLU_BAD_OPTION',
    `'${key}' must be a number from 0 to 1, not ${JSON.stringify(value)}.`,
  );
}

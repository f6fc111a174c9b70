import type { TrainingExample } from '../../../../core/domain/nlu-data.js';
import { PatternSet } from '../patterns.js';
import type { PatternOptions, PatternTable } from '../patterns.js';
import { tokenize } from '../tokens.js';
import type { Token } from '../tokens.js';
import type { ExtractedEntity } from '../types.js';
import { isWordFormFeature, sequenceFeatures } from './features.js';
import { goldTags, labelKey, labelOf, spansOf, tagCount } from './labels.js';
import type { EntityLabel, TaggedSpan } from './labels.js';
import { LinearChainModel } from './perceptron.js';
import type { PerceptronJson } from './perceptron.js';
import { trainPerceptron } from './train.js';

export interface TaggerJson {
  readonly labels: readonly EntityLabel[];
  /** regex and lookup tables used as features (all of them, not only those named after entities) */
  readonly patterns: readonly PatternTable[];
  readonly patternOptions: Required<PatternOptions>;
  readonly model: PerceptronJson;
}

export interface TaggerTrainingOptions extends PatternOptions {
  /** default 20 */
  readonly epochs?: number;
  /** default 1 */
  readonly seed?: number;
  /** share of training visits in which a token's own word form is hidden; default 0.15 */
  readonly dropout?: number;
  readonly patterns?: readonly PatternTable[];
}

/**
 * The trained extractor (the role of Rasa's CRFEntityExtractor / DIET): an averaged structured perceptron
 * over word tokens with BIO tags, one label per (entity, role, group) seen in the annotated examples.
 * The value of an entity is the text it covers (synonyms are mapped afterwards).
 */
export class PerceptronEntityExtractor {
  readonly labels: readonly EntityLabel[];
  private readonly patterns: PatternSet;
  private readonly model: LinearChainModel;

  constructor(options: { labels: readonly EntityLabel[]; patterns: PatternSet; model: LinearChainModel }) {
    this.labels = options.labels;
    this.patterns = options.patterns;
    this.model = options.model;
  }

  /** Trains on every example; undefined when no example carries an entity annotation. */
  static train(
    examples: readonly TrainingExample[],
    options: TaggerTrainingOptions = {},
  ): PerceptronEntityExtractor | undefined {
    const labels = collectLabels(examples);
    if (labels.length === 0) return undefined;
    const patterns = new PatternSet({ ...options, tables: options.patterns ?? [] });
    const labelIndex = new Map(labels.map((label, index) => [labelKey(label), index]));
    const sequences = examples.map((example) => {
      const tokens = tokenize(example.text);
      return {
        features: sequenceFeatures(tokens, patterns.matches(example.text)),
        tags: goldTags(tokens, example.entities, labelIndex),
      };
    });
    const model = trainPerceptron(sequences, {
      numTags: tagCount(labels.length),
      epochs: options.epochs ?? 20,
      seed: options.seed ?? 1,
      dropout: options.dropout ?? 0.15,
      droppable: isWordFormFeature,
    });
    return new PerceptronEntityExtractor({ labels, patterns, model });
  }

  static fromJSON(json: TaggerJson): PerceptronEntityExtractor {
    return new PerceptronEntityExtractor({
      labels: json.labels,
      patterns: new PatternSet({ ...json.patternOptions, tables: json.patterns }),
      model: LinearChainModel.fromJSON(json.model),
    });
  }

  extract(text: string): ExtractedEntity[] {
    const tokens = tokenize(text);
    const features = sequenceFeatures(tokens, this.patterns.matches(text));
    const { tags, confidences } = this.model.decode(features.map((list) => this.model.featureIds(list)));
    return spansOf(tags).flatMap((span) => {
      const label = this.labels[span.label];
      const first = tokens[span.first];
      const last = tokens[span.last];
      if (!label || !first || !last || !hasWord(span, tokens)) return [];
      const scores = confidences.slice(span.first, span.last + 1);
      const confidence = scores.reduce((sum, score) => sum + score, 0) / scores.length;
      return [
        {
          ...label,
          value: text.slice(first.start, last.end),
          start: first.start,
          end: last.end,
          confidence: Math.round(confidence * 1e4) / 1e4,
          extractor: 'PerceptronEntityExtractor' as const,
        },
      ];
    });
  }

  toJSON(): TaggerJson {
    return {
      labels: this.labels,
      patterns: this.patterns.tables,
      patternOptions: this.patterns.options,
      model: this.model.toJSON(),
    };
  }
}

/** Whether a span covers a letter or digit; spans of punctuation only are dropped. */
function hasWord(span: TaggedSpan, tokens: readonly Token[]): boolean {
  return tokens.slice(span.first, span.last + 1).some((token) => /[\p{L}\p{N}]/u.test(token.text));
}

/** The distinct (entity, role, group) labels of the examples, sorted so training is order-independent. */
function collectLabels(examples: readonly TrainingExample[]): EntityLabel[] {
  const labels = new Map<string, EntityLabel>();
  for (const example of examples)
    for (const span of example.entities) labels.set(labelKey(labelOf(span)), labelOf(span));
  return [...labels.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, label]) => label);
}

import { chainTables, constrainedTransitions, marginals, viterbi } from './inference.js';
import type { ChainTables } from './inference.js';

/** Weights of a linear-chain tagger, as stored in a model (rows of `numTags` numbers). */
export interface PerceptronJson {
  readonly numTags: number;
  readonly features: readonly string[];
  /** features.length x numTags emission weights, row by row */
  readonly weights: readonly number[];
  /** (numTags + 1) x numTags transition weights; the last row is the transition from the start */
  readonly transitions: readonly number[];
}

export interface Decoded {
  readonly tags: number[];
  /** per token: the marginal probability of the chosen tag (forward-backward over the scores) */
  readonly confidences: number[];
}

/** A linear-chain model scored by feature weights plus tag-transition weights, decoded by Viterbi. */
export class LinearChainModel {
  readonly numTags: number;
  private readonly featureIndex: ReadonlyMap<string, number>;
  readonly weights: Float64Array;
  readonly transitions: Float64Array;
  /** derived from `transitions` on the first decode; decode is only used once training is over */
  private tables: ChainTables | undefined;

  constructor(options: {
    numTags: number;
    featureIndex: ReadonlyMap<string, number>;
    weights: Float64Array;
    transitions: Float64Array;
  }) {
    this.numTags = options.numTags;
    this.featureIndex = options.featureIndex;
    this.weights = options.weights;
    this.transitions = options.transitions;
  }

  static fromJSON(json: PerceptronJson): LinearChainModel {
    return new LinearChainModel({
      numTags: json.numTags,
      featureIndex: new Map(json.features.map((feature, index) => [feature, index])),
      weights: Float64Array.from(json.weights),
      transitions: Float64Array.from(json.transitions),
    });
  }

  featureIds(features: readonly string[]): number[] {
    const ids: number[] = [];
    for (const feature of features) {
      const id = this.featureIndex.get(feature);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  emissions(sequence: readonly (readonly number[])[]): Float64Array[] {
    return sequence.map((ids) => {
      const scores = new Float64Array(this.numTags);
      for (const id of ids)
        for (let tag = 0; tag < this.numTags; tag++)
          scores[tag] = (scores[tag] ?? 0) + (this.weights[id * this.numTags + tag] ?? 0);
      return scores;
    });
  }

  bestTags(sequence: readonly (readonly number[])[]): number[] {
    return viterbi(
      this.emissions(sequence),
      constrainedTransitions(this.transitions, this.numTags),
      this.numTags,
    );
  }

  decode(sequence: readonly (readonly number[])[]): Decoded {
    const emissions = this.emissions(sequence);
    this.tables ??= chainTables(this.transitions, this.numTags);
    const tags = viterbi(emissions, this.tables.transitions, this.numTags);
    const probabilities = marginals(emissions, this.tables);
    return { tags, confidences: tags.map((tag, index) => probabilities[index]?.[tag] ?? 0) };
  }

  toJSON(): PerceptronJson {
    const kept: string[] = [];
    const weights: number[] = [];
    for (const [feature, id] of this.featureIndex) {
      const row = Array.from(this.weights.subarray(id * this.numTags, (id + 1) * this.numTags), round);
      if (row.every((weight) => weight === 0)) continue;
      kept.push(feature);
      weights.push(...row);
    }
    return {
      numTags: this.numTags,
      features: kept,
      weights,
      transitions: Array.from(this.transitions, round),
    };
  }
}

function round(weight: number): number {
  return Math.round(weight * 1e6) / 1e6;
}

import { transitionAllowed } from './labels.js';
import { tagMarginals } from './marginals.js';

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
        for (let tag = 0; tag < this.numTags; tag++) scores[tag]! += this.weights[id * this.numTags + tag]!;
      return scores;
    });
  }

  transition(previous: number | undefined, next: number): number {
    const row = previous ?? this.numTags;
    return this.transitions[row * this.numTags + next] ?? 0;
  }

  bestTags(sequence: readonly (readonly number[])[]): number[] {
    return viterbi(this.emissions(sequence), this);
  }

  decode(sequence: readonly (readonly number[])[]): Decoded {
    const emissions = this.emissions(sequence);
    const tags = viterbi(emissions, this);
    const marginals = tagMarginals(emissions, this);
    return { tags, confidences: tags.map((tag, index) => marginals[index]?.[tag] ?? 0) };
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

function viterbi(emissions: readonly Float64Array[], model: LinearChainModel): number[] {
  const tags = model.numTags;
  const back: Int32Array[] = [];
  let scores = new Float64Array(tags);
  emissions.forEach((emission, index) => {
    const next = new Float64Array(tags).fill(-Infinity);
    const pointers = new Int32Array(tags).fill(-1);
    for (let tag = 0; tag < tags; tag++) {
      const previousTags = index === 0 ? [undefined] : [...Array(tags).keys()];
      for (const previous of previousTags) {
        if (!transitionAllowed(previous, tag)) continue;
        const base = previous === undefined ? 0 : (scores[previous] ?? -Infinity);
        const score = base + model.transition(previous, tag) + (emission[tag] ?? 0);
        if (score > (next[tag] ?? -Infinity)) {
          next[tag] = score;
          pointers[tag] = previous ?? -1;
        }
      }
    }
    back.push(pointers);
    scores = next;
  });
  return backtrack(scores, back);
}

function backtrack(scores: Float64Array, back: readonly Int32Array[]): number[] {
  if (back.length === 0) return [];
  let best = 0;
  scores.forEach((score, tag) => {
    if (score > (scores[best] ?? -Infinity)) best = tag;
  });
  const path = [best];
  for (let index = back.length - 1; index > 0; index--) {
    best = back[index]?.[best] ?? 0;
    path.unshift(best);
  }
  return path;
}

function round(weight: number): number {
  return Math.round(weight * 1e6) / 1e6;
}

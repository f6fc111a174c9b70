import { softmaxInPlace } from './linear.js';
import { hiddenSize, memberLogits, ScoringBuffers } from './members.js';
import type { TrainedMember } from './members.js';
import { serializeParts } from './model-writer.js';
import type { ClassifierOptions } from './options.js';
import { tokenise } from './text.js';
import { featurise } from './vectoriser.js';
import type { Vectoriser } from './vectoriser.js';

export interface IntentScore {
  readonly intent: string;
  readonly confidence: number;
}

export interface IntentPrediction {
  /** The top intent, or the fallback intent (`nlu_fallback`) when the classifier is not confident. */
  readonly intent: string;
  readonly confidence: number;
  /** The most likely trained intents, best first, with calibrated confidences. */
  readonly ranking: readonly IntentScore[];
  /** True for the fallback intent and for a trained out-of-scope intent (`oos`, `out_of_scope`). */
  readonly outOfScope: boolean;
}

export interface IntentClassifierParts {
  readonly labels: readonly string[];
  readonly vectoriser: Vectoriser;
  readonly members: readonly TrainedMember[];
  readonly options: ClassifierOptions;
}

const RANKING_LENGTH = 10;

/** A trained ensemble: TF-IDF features, members scored and calibrated, their probabilities averaged. */
export class IntentClassifier {
  readonly labels: readonly string[];
  readonly vectoriser: Vectoriser;
  readonly members: readonly TrainedMember[];
  readonly options: ClassifierOptions;
  private readonly buffers: ScoringBuffers;
  private readonly outOfScope: ReadonlySet<string>;

  constructor(parts: IntentClassifierParts) {
    this.labels = parts.labels;
    this.vectoriser = parts.vectoriser;
    this.members = parts.members;
    this.options = parts.options;
    this.buffers = new ScoringBuffers(parts.labels.length, Math.max(0, ...parts.members.map(hiddenSize)));
    this.outOfScope = new Set(parts.options.outOfScopeIntents);
  }

  /**
   * The calibrated probability of every trained intent, in the order of `labels`: each member's softmax
   * at its temperature, flattened by the message's coverage (uniform when no n-gram is known), averaged.
   */
  probabilities(text: string): Float64Array {
    const { vector, coverage } = featurise(this.vectoriser, tokenise(text));
    const total = new Float64Array(this.labels.length);
    for (const member of this.members) {
      memberLogits(member, vector, this.buffers);
      softmaxInPlace(this.buffers.scores, member.temperature / coverage);
      for (let c = 0; c < total.length; c += 1)
        total[c] = (total[c] as number) + (this.buffers.scores[c] as number);
    }
    for (let c = 0; c < total.length; c += 1) total[c] = (total[c] as number) / this.members.length;
    return total;
  }

  predict(text: string): IntentPrediction {
    const ranking = this.rank(this.probabilities(text));
    const top = ranking[0] ?? { intent: this.options.fallback?.intent ?? 'nlu_fallback', confidence: 0 };
    const fallback = this.options.fallback;
    const margin = top.confidence - (ranking[1]?.confidence ?? 0);
    if (fallback && (top.confidence < fallback.threshold || margin < fallback.ambiguityThreshold))
      return { intent: fallback.intent, confidence: fallback.threshold, ranking, outOfScope: true };
    return {
      intent: top.intent,
      confidence: top.confidence,
      ranking,
      outOfScope: this.outOfScope.has(top.intent),
    };
  }

  /** The model as bytes (see `deserializeIntentClassifier`). */
  serialize(): Uint8Array {
    return serializeParts(this);
  }

  private rank(probabilities: Float64Array): IntentScore[] {
    const order = Array.from(probabilities.keys()).sort(
      (a, b) => (probabilities[b] as number) - (probabilities[a] as number) || a - b,
    );
    return order.slice(0, RANKING_LENGTH).map((at) => ({
      intent: this.labels[at] as string,
      confidence: probabilities[at] as number,
    }));
  }
}

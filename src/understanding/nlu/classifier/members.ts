import { assertNever } from '../../../core/errors.js';
import { trainLinear } from './linear.js';
import type { LinearModel } from './linear.js';
import { forward, trainMlp } from './mlp.js';
import type { MlpModel } from './mlp.js';
import type { MemberOptions } from './options.js';
import type { Random } from './random.js';
import type { SparseMatrix, SparseVector } from './sparse.js';
import { addProduct } from './sparse.js';

/** A trained ensemble member with the temperature that calibrates its softmax. */
export type TrainedMember =
  | { readonly kind: 'linear'; readonly model: LinearModel; readonly temperature: number }
  | { readonly kind: 'mlp'; readonly model: MlpModel; readonly temperature: number };

export interface TrainingSet {
  readonly data: SparseMatrix;
  readonly labels: Int32Array;
  readonly features: number;
  readonly classes: number;
}

export function trainMember(options: MemberOptions, set: TrainingSet, random: Random): TrainedMember {
  const { data, labels, features, classes } = set;
  switch (options.kind) {
    case 'linear': {
      const model = trainLinear(data, labels, features, classes, options, random);
      return { kind: 'linear', model, temperature: 1 };
    }
    case 'mlp': {
      const model = trainMlp(data, labels, features, classes, options, random);
      return { kind: 'mlp', model, temperature: 1 };
    }
    default:
      return assertNever(options, 'ensemble member');
  }
}

/** Scratch space for scoring, so prediction allocates nothing per member. */
export class ScoringBuffers {
  readonly scores: Float64Array;
  readonly hidden: Float64Array;

  constructor(classes: number, hidden: number) {
    this.scores = new Float64Array(classes);
    this.hidden = new Float64Array(hidden);
  }
}

/** The member's raw scores (logits) for one vector, into `buffers.scores`. */
export function memberLogits(member: TrainedMember, vector: SparseVector, buffers: ScoringBuffers): void {
  switch (member.kind) {
    case 'linear':
      buffers.scores.set(member.model.bias);
      addProduct(member.model.weights, member.model.classes, vector.indices, vector.values, buffers.scores);
      return;
    case 'mlp':
      forward(member.model, vector.indices, vector.values, buffers);
      return;
    default:
      assertNever(member, 'ensemble member');
  }
}

export function hiddenSize(member: TrainedMember): number {
  return member.kind === 'mlp' ? member.model.hidden : 0;
}

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
  const epochs = epochsFor(options, data.rows);
  switch (options.kind) {
    case 'linear': {
      const model = trainLinear(data, labels, features, classes, { ...options, epochs }, random);
      return { kind: 'linear', model, temperature: 1 };
    }
    case 'mlp': {
      const model = trainMlp(data, labels, features, classes, { ...options, epochs }, random);
      return { kind: 'mlp', model, temperature: 1 };
    }
    default:
      return assertNever(options, 'ensemble member');
  }
}

/** `epochs`, raised for small data sets (towards `minSteps`) and lowered for large ones (`maxSteps`). */
export function epochsFor(options: MemberOptions, rows: number): number {
  const small = Math.max(
    options.epochs,
    Math.min(options.maxEpochs, Math.ceil(options.minSteps / Math.max(1, rows))),
  );
  return Math.max(1, Math.min(small, Math.floor(options.maxSteps / Math.max(1, rows))));
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
